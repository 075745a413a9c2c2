/**
 * The ports as the engines import them: declared in ports/ (docs/architecture.md "Ports"), wired by
 * ../composition.ts. Kept so the engines' modules read their ports from their own side of the package.
 */
export type { CallPorts } from '../ports/callPorts.ts';
export type { ClockPort } from '../ports/clock.ts';
export type { DevicesPort, LocalMediaRequest } from '../ports/devices.ts';
export { whenVisible, type EnvironmentPort } from '../ports/environment.ts';
export type { MediaTransport, MediaTransportOptions } from '../ports/media.ts';
export type { SignallingPort } from '../ports/signalling.ts';
