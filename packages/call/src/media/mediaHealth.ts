/**
 * What both engines (guest and agent) do when the media server fails (SPEC.md §8, issue 12), written
 * once: the notice a person sees while Janus is waited for, and the call's failure when its session is
 * lost (Janus restarted or crashed: its rooms and sessions are gone).
 *
 * - 'waitingForServer': Janus does not answer (the room cannot be made, or connecting fails); retried
 *   up to SPEC.md §8's 20 times with a bounded delay, then the call fails with MEDIA_SERVER_DOWN.
 * - 'reconnecting': the transport to Janus dropped; the media goes on and the session is claimed again.
 * - MEDIA_LOST: the session is gone; the call ends, its report marked failed.
 */
import { ApiError } from '../api/http.ts';
import type { MediaGrant } from '../api/guestApi.ts';
import type { MediaTransport } from '../room/ports.ts';
import { isTransientGatewayError, retry } from './retry.ts';

export type MediaNotice = 'waitingForServer' | 'reconnecting' | null;

/** The engines' error when Janus could not be reached after every attempt. */
export const MEDIA_SERVER_DOWN = 'mediaServerDown';
/** The engines' error when Janus lost the call's session (restarted or crashed) mid-call. */
export const MEDIA_LOST = 'mediaLost';

/** A media grant failing because Janus is down (the server cannot make the room): 5xx or no answer. */
export function isTransientGrantError(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 0 || error.status >= 500;
  return isTransientGatewayError(error) || error instanceof TypeError; // fetch: network error
}

/**
 * The server's media grant, asked again while Janus is down (the server creates the room in Janus),
 * each retry told through `notice`.
 */
export function grantWithRetry(
  ask: () => Promise<MediaGrant>,
  options: { attempts?: number; stopIf: () => boolean; notice: (notice: MediaNotice) => void },
): Promise<MediaGrant> {
  return retry(ask, {
    attempts: options.attempts ?? 20,
    stopIf: options.stopIf,
    transient: isTransientGrantError,
    onRetry: (error, attempt) => {
      console.warn(`media: no room yet (attempt ${attempt}): ${String(error)}`);
      options.notice('waitingForServer');
    },
  }).catch((error: unknown) => {
    throw isTransientGrantError(error) ? new Error(MEDIA_SERVER_DOWN, { cause: error }) : error;
  });
}

/**
 * Follows a media session's health: the notice to show, and `onLost` once its session is gone. Returns
 * the connect step wrapped so that its final failure reads MEDIA_SERVER_DOWN.
 */
export function watchMediaHealth(
  media: MediaTransport,
  handlers: { current: () => boolean; notice: (notice: MediaNotice) => void; onLost: (error: string) => void },
): { connect: () => Promise<void> } {
  // each step is logged: the console buffer goes with a call-bug report (consoleBuffer.ts)
  media.on('connectRetry', ({ attempt, error }) => {
    console.warn(`media: connecting, attempt ${attempt + 1}: ${error}`);
    if (handlers.current()) handlers.notice('waitingForServer');
  });
  media.on('reconnecting', ({ error }) => {
    console.warn(`media: transport lost, reclaiming the session: ${error}`);
    if (handlers.current()) handlers.notice('reconnecting');
  });
  media.on('reconnected', () => {
    console.info('media: session reclaimed');
    if (handlers.current()) handlers.notice(null);
  });
  media.on('lost', ({ error }) => {
    console.error(`media: session lost: ${error}`);
    if (!handlers.current()) return;
    handlers.notice(null);
    handlers.onLost(error);
  });
  return {
    connect: async () => {
      try {
        await media.connect();
      } catch (error) {
        throw isTransientGatewayError(error) ? new Error(MEDIA_SERVER_DOWN, { cause: error }) : error;
      } finally {
        if (handlers.current()) handlers.notice(null);
      }
    },
  };
}
