/**
 * The standby hand-over, the agent's side (media/standby.ts): while calls wait and the agent is free, the
 * media server's connection, and a Janus session with its handles when the API gives a standby token, are
 * made ahead, off the answer's path, for the next answer to take; ended when the console goes offline.
 * The desk hands in its ports' warmMedia / coolMedia, its API and its signalling session (ICE servers).
 */
import type { ConsoleApi } from '../api/consoleApi.ts';
import type { StandbyRequest } from '../media/standby.ts';
import type { CallPorts, SignallingPort } from '../room/ports.ts';

export interface MediaWarmupOptions {
  ports: Pick<CallPorts, 'warmMedia' | 'coolMedia'>;
  api: Pick<ConsoleApi, 'mediaStandby'>;
  janusServers: string[];
  signalling: () => SignallingPort | null;
  /** calls wait and we are free */
  wanted: () => boolean;
  /** the next answer needs nothing more made ahead (the desk's mediaReady) */
  ready: (ready: boolean) => void;
}

export class MediaWarmup {
  readonly #options: MediaWarmupOptions;

  constructor(options: MediaWarmupOptions) {
    this.#options = options;
  }

  /** After each change of the desk: warms up when calls wait and we are free. */
  update(): void {
    if (this.#options.wanted()) this.#options.ports.warmMedia?.(this.#options.janusServers, this.#request());
  }

  /** The console goes offline: what was made ahead ends. */
  cool(): void {
    this.#options.ports.coolMedia?.();
  }

  #request(): StandbyRequest | undefined {
    const { api, signalling, wanted, ready } = this.#options;
    const xmpp = signalling();
    if (!api.mediaStandby || !xmpp) return undefined;
    return {
      iceServers: xmpp.iceServers,
      token: () => api.mediaStandby!(),
      onReady: ready,
      wanted,
    };
  }
}
