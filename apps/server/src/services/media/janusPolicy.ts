/**
 * What a browser may ask of Janus through the Lobby server (web/janusGate.ts). A browser gets no power
 * beyond its own part in its own call (docs/security.md "Media plane"):
 *
 * - every request carries a token the server signed for one room (janusTokens.ts), or it never reaches
 *   Janus; `info` (the version and plugins) is not public;
 * - only the videoroom plugin, and of its requests only what a participant does in its own room: join
 *   as publisher or subscriber, publish/configure its own media, subscribe, start, pause, leave;
 * - `room` in a request must be the token's room;
 * - create, edit, destroy, kick, moderate, enable_recording, rtp_forward and every listing stay with the
 *   server (which holds the videoroom admin_key and each room's secret); recording flags in configure
 *   are refused (the server records: lock_record).
 */
import type { JanusTokenClaims, JanusTokens, Participant } from './janusTokens.ts';
import { VIDEOROOM } from './janusTokens.ts';

/**
 * Janus core verbs a participant uses (janus.js): session, handles, trickle, keepalive, and `claim` (its
 * session on a new websocket after the old one dropped). A session belongs to the connection (websocket)
 * or the gate's record (HTTP) that created it; a claim passes only for a session of the token's room,
 * which the gate asks Janus about (janusSessions.ts).
 */
const CORE = new Set(['create', 'claim', 'attach', 'message', 'trickle', 'keepalive', 'detach', 'hangup', 'destroy']);

/** videoroom requests a participant sends about itself (Janus 1.1 janus_videoroom.c). */
const VIDEOROOM_REQUESTS = new Set([
  'join', 'joinandconfigure', 'configure', 'publish', 'unpublish',
  'start', 'pause', 'switch', 'subscribe', 'unsubscribe', 'update', 'leave',
]);

/** Fields only the server may set: the room secret, recording, forwarding. */
const SERVER_ONLY_FIELDS = ['secret', 'admin_key', 'record', 'filename', 'rec_dir', 'permanent'];

export type Verdict =
  | { ok: true; claims: JanusTokenClaims & { room: string; participant: Participant } }
  | { ok: false; reason: string };

export function checkJanusRequest(tokens: JanusTokens, message: unknown): Verdict {
  if (!message || typeof message !== 'object' || Array.isArray(message)) return { ok: false, reason: 'not a JSON object' };
  const m = message as Record<string, unknown>;
  const verb = m.janus;
  if (typeof verb !== 'string' || !CORE.has(verb)) return { ok: false, reason: `janus: '${String(verb)}' is not allowed` };
  const claims = typeof m.token === 'string' ? tokens.verify(m.token) : null;
  // the server's own token has no room: it is for the server's direct connection, never for the gate
  if (!claims || claims.room === null || claims.participant === null) {
    return { ok: false, reason: 'token: missing, invalid or expired' };
  }
  const { room, participant } = claims;
  if (verb === 'claim' && !(typeof m.session_id === 'number' || (typeof m.session_id === 'string' && /^\d+$/.test(m.session_id)))) {
    return { ok: false, reason: 'session_id: missing' };
  }
  if (verb === 'attach' && m.plugin !== VIDEOROOM) return { ok: false, reason: `plugin: only ${VIDEOROOM}` };
  if (verb === 'message') {
    const body = m.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return { ok: false, reason: 'body: missing' };
    const b = body as Record<string, unknown>;
    if (typeof b.request !== 'string' || !VIDEOROOM_REQUESTS.has(b.request)) {
      return { ok: false, reason: `body.request: '${String(b.request)}' is reserved to the server` };
    }
    const field = SERVER_ONLY_FIELDS.find((f) => f in b);
    if (field) return { ok: false, reason: `body.${field}: decided by the server` };
    if ('room' in b && String(b.room) !== room) return { ok: false, reason: 'body.room: not the room of your token' };
    if ((b.request === 'join' || b.request === 'joinandconfigure') && !('room' in b)) {
      return { ok: false, reason: 'body.room: missing' };
    }
  }
  return { ok: true, claims: { ...claims, room, participant } };
}
