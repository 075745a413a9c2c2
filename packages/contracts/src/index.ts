export * from './common.ts';
export * from './ids.ts';
export * from './company.ts';
export * from './guest.ts';
export * from './callReport.ts';
export * from './console.ts';
export * from './health.ts';
export * from './admin.ts';
