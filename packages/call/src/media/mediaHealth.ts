/**
 * What both engines (guest and agent) do when the media server fails (docs/protocol.md), written
 * once: the notice a person sees while Janus is waited for, and the call's failure when its session is
 * lost (Janus restarted or crashed: its rooms and sessions are gone).
 *
 * - 'waitingForServer': Janus does not answer (the room cannot be made, or connecting fails); retried
 *   up to 20 times with a bounded delay, then the call fails with MEDIA_SERVER_DOWN.
 * - 'reconnecting': the transport to Janus dropped; the media goes on and the session is claimed again.
 * - 'serverUnreachable': the transport dropped and no media arrives either (Janus itself is down): the
 *   picture is frozen while the session is claimed again.
 * - MEDIA_SERVER_DOWN (after the claims): Janus never answered again; MEDIA_LOST: it answered without
 *   the session (it restarted). Only the latter says "restarted" to people.
 * - MEDIA_LOST: the session is gone (Janus answered without it); an engine that can rejoin (`onRejoin`)
 *   takes a new grant and a new session in the same call (docs/protocol.md "Media session lost"), and
 *   the picture stays 'serverUnreachable' until the others' media reaches the new session (`rejoining`);
 *   otherwise, or when the rejoin fails, the call ends, its report marked failed.
 * - Janus unreachable through MOVE_AFTER_CLAIMS claims (its node may be dead for good): an engine that
 *   can move (`onUnreachable`) asks once for a new grant while the claims go on; the server moves the room
 *   to a node that answers and the call goes on in a new session there, or it cannot (503) and the claims
 *   go on. One move at a time; a session lost while one is under way waits for its outcome.
 * - 'networkReconnecting': our own peer connection lost its path and is ICE-restarted (media/iceRestart.ts);
 *   ICE_FAILED when no restart brought it back.
 * - 'peerReconnecting': the others' media stalled (their network is gone, media/mediaWatch.ts).
 * Several at once show the one that concerns the person most (NOTICE_ORDER).
 */
import { ApiError } from '../api/http.ts';
import type { MediaGrant } from '@lobby/contracts';
import type { MediaTransport } from '../ports/media.ts';
import { isTransientGatewayError, retry } from './retry.ts';

export type MediaNotice = 'waitingForServer' | 'networkReconnecting' | 'reconnecting' | 'serverUnreachable' | 'peerReconnecting' | null;

/**
 * The notices by precedence, when several troubles overlap: Janus's transport dropped (Janus crashed or
 * restarted, which breaks every connection's ICE too) says most; then our own connection; then the others'.
 */
const NOTICE_ORDER = ['waitingForServer', 'reconnecting', 'networkReconnecting', 'peerReconnecting'] as const;
/** 'rejoining': a new session after the lost one, until the others' media reaches it (read as 'serverUnreachable') */
type Trouble = (typeof NOTICE_ORDER)[number] | 'rejoining';

/** The engines' error when a peer connection stayed down through every ICE restart. */
export const ICE_FAILED = 'iceFailed';

/** The engines' error when Janus could not be reached after every attempt. */
export const MEDIA_SERVER_DOWN = 'mediaServerDown';
/** The engines' error when Janus lost the call's session (restarted or crashed) mid-call. */
export const MEDIA_LOST = 'mediaLost';

/**
 * Failed claims of a dropped session after which the engines try to move the call to a new session
 * (docs/protocol.md "Constants"): about 0.5 s of Janus not answering (the claims are 0.5–1.5 s apart,
 * media/janus/connection.ts); tried again after every as many more while the claims go on. Early, since a
 * node that answers keeps the call: the server refuses the move then (409) and the claims go on.
 */
export const MOVE_AFTER_CLAIMS = 2;

/**
 * A move the server refused because the room's node answers (409): the other side has just moved the room
 * there, or our own line was down. Either way a claim is answered now (without the session: the call
 * rejoins on the room's node), so the session is claimed at once instead of after its wait.
 */
export function claimAfterRefusedMove(media: MediaTransport, failure: unknown): void {
  if (failure instanceof ApiError && failure.status === 409) media.claimNow?.();
}

/** Why a session was lost: Janus still unreachable after every claim, or back without it (restarted). */
export function lostCode(error: string): typeof MEDIA_SERVER_DOWN | typeof MEDIA_LOST {
  return isTransientGatewayError(error) ? MEDIA_SERVER_DOWN : MEDIA_LOST;
}

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
  handlers: {
    current: () => boolean;
    notice: (notice: MediaNotice) => void;
    onLost: (error: string) => void;
    /**
     * Janus answered without the session (MEDIA_LOST): the engine rejoins the call with a new session
     * instead of ending it; the notice stays 'serverUnreachable' meanwhile
     */
    onRejoin?: (error: string) => void;
    /** this session replaces a lost one: 'serverUnreachable' until the others' media reaches it */
    rejoining?: boolean;
    /**
     * Janus stayed unreachable through MOVE_AFTER_CLAIMS claims: the engine asks once for a grant in a new
     * session (`rejoin`: the server moves the room to a node that answers) and moves the call there;
     * resolves whether it moved (false: the server could not place the room, the claims go on)
     */
    onUnreachable?: (error: string) => Promise<boolean>;
    /** a peer connection stayed down through every ICE restart */
    onIceFailed?: (handle: 'publisher' | 'subscriber' | 'screen') => void;
  },
): { connect: () => Promise<void>; peerStalled: (stalled: boolean) => void } {
  const troubles = new Set<Trouble>(handlers.rejoining ? ['rejoining'] : []);
  const restarting = new Set<string>();
  // undefined: the first change is always told (a grant's 'waitingForServer' is cleared by connecting)
  let shown: MediaNotice | undefined;
  const set = (trouble: Trouble, on: boolean) => {
    if (on) troubles.add(trouble);
    else troubles.delete(trouble);
    let notice: MediaNotice = NOTICE_ORDER.find((t) => troubles.has(t)) ?? null;
    // the transport dropped and nothing arrives either: not a websocket hiccup (the call goes on), the
    // media server is unreachable and the picture frozen; and so it is until a rejoined session's media comes
    if ((notice === 'reconnecting' && troubles.has('peerReconnecting')) || troubles.has('rejoining')) notice = 'serverUnreachable';
    if (notice === shown || !handlers.current()) return;
    shown = notice;
    handlers.notice(notice);
  };
  // each step is logged: the console buffer goes with a call-bug report (consoleBuffer.ts)
  media.on('connectRetry', ({ attempt, error }) => {
    console.warn(`media: connecting, attempt ${attempt + 1}: ${error}`);
    set('waitingForServer', true);
  });
  media.on('reconnecting', ({ error }) => {
    console.warn(`media: transport lost, reclaiming the session: ${error}`);
    set('reconnecting', true);
  });
  media.on('reconnected', () => {
    console.info('media: session reclaimed');
    set('reconnecting', false);
  });
  /** the session was lost: nothing it still says is the call's (a rejoin's new session takes over) */
  let gone = false;
  /** a move to a new session under way (its outcome: whether the call moved) */
  let moving: Promise<boolean> | null = null;
  media.on('claimFailed', ({ attempt, error }) => {
    console.warn(`media: claim ${attempt} of the session failed: ${error}`);
    const { onUnreachable } = handlers;
    if (!onUnreachable || moving || gone || attempt % MOVE_AFTER_CLAIMS !== 0 || !handlers.current()) return;
    console.warn(`media: Janus unreachable through ${attempt} claims: moving the call to a new session`);
    const move = onUnreachable(error).catch(() => false);
    moving = move;
    void move.then(() => {
      if (moving === move) moving = null;
    });
  });
  /** the session is gone: a rejoin, or the call's end */
  const lost = (error: string) => {
    if (!handlers.current()) return;
    if (handlers.onRejoin && lostCode(error) === MEDIA_LOST) {
      // the picture stays frozen while the call takes a new session (never a moment without the notice)
      troubles.clear();
      set('rejoining', true);
      handlers.onRejoin(error);
      return;
    }
    troubles.clear();
    set('rejoining', false);
    handlers.onLost(error);
  };
  media.on('lost', ({ error }) => {
    console.error(`media: session lost: ${error}`);
    gone = true;
    // never two new sessions: a move under way decides first (moved, this session's end is nothing)
    if (moving)
      void moving.then((moved) => {
        if (!moved) lost(error);
      });
    else lost(error);
  });
  media.on('remoteFeed', () => {
    if (gone) return;
    if (troubles.has('rejoining')) console.info('media: the call is back on a new session');
    set('rejoining', false);
  });
  const ice = (handle: string, on: boolean) => {
    if (on) restarting.add(handle);
    else restarting.delete(handle);
    set('networkReconnecting', restarting.size > 0);
  };
  media.on('iceRestarting', ({ handle }) => {
    console.warn(`media: the ${handle}'s connection dropped, restarting ICE`);
    ice(handle, true);
  });
  media.on('iceRestarted', ({ handle }) => {
    console.info(`media: the ${handle}'s connection is back`);
    ice(handle, false);
  });
  media.on('iceFailed', ({ handle }) => {
    console.error(`media: the ${handle}'s connection failed for good`);
    ice(handle, false);
    if (handlers.current()) handlers.onIceFailed?.(handle);
  });
  return {
    connect: async () => {
      try {
        await media.connect();
      } catch (error) {
        throw isTransientGatewayError(error) ? new Error(MEDIA_SERVER_DOWN, { cause: error }) : error;
      } finally {
        set('waitingForServer', false);
      }
    },
    peerStalled: (stalled) => set('peerReconnecting', stalled),
  };
}
