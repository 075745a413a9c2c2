// The bundler's asset imports (Vite builds both apps: vite.apps.ts): a file's URL, and a worker's or a
// worklet's bundled entry's URL (media/noise/pipeline.ts).
declare module '*?url' {
  const url: string;
  export default url;
}
declare module '*?worker&url' {
  const url: string;
  export default url;
}
declare module '@jitsi/rnnoise-wasm/dist/rnnoise.js' {
  const createRNNWasmModule: (module?: Record<string, unknown>) => Promise<unknown>;
  export default createRNNWasmModule;
}
