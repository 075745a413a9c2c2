/**
 * What a browser may ask of Janus through the Lobby server (web/janusGate.ts). A browser gets no power
 * beyond its own part in its own call (docs/security.md "Media plane"):
 *
 * - every request carries a token the server signed for one room (janusTokens.ts), or it never reaches
 *   Janus; `info` (the version and plugins) is not public;
 * - an agent's standby token (no room) only keeps a session warm: create, keepalive, attach a videoroom
 *   handle, detach, hangup, destroy, claim; never a message or a trickle (nothing it could send names a
 *   room it may enter). The handles' room requests carry the agent's room token once it has answered;
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
 * or the gate's record (HTTP) that created it; a claim passes only for a session of the token's room and
 * participant (a standby token: of its agent), which the gate asks Janus about (janusSessions.ts).
 */
const CORE = new Set(['create', 'claim', 'attach', 'message', 'trickle', 'keepalive', 'detach', 'hangup', 'destroy']);

/** videoroom requests a participant sends about itself (Janus 1.1 janus_videoroom.c). */
const VIDEOROOM_REQUESTS = new Set([
  'join', 'joinandconfigure', 'configure', 'publish', 'unpublish',
  'start', 'pause', 'switch', 'subscribe', 'unsubscribe', 'update', 'leave',
]);

/** Fields only the server may set: the room secret, recording, forwarding. */
const SERVER_ONLY_FIELDS = ['secret', 'admin_key', 'record', 'filename', 'rec_dir', 'permanent'];

/** Janus core verbs a standby token allows: a session and its handles, warm, in no room. */
const STANDBY = new Set(['create', 'claim', 'attach', 'keepalive', 'detach', 'hangup', 'destroy']);

export type RoomClaims = JanusTokenClaims & { room: string; participant: Participant };
export type StandbyClaims = JanusTokenClaims & { room: null; participant: Participant & { role: 'agent' } };

/** `standby` tells a room token (the room is known) from an agent's standby token (no room). */
export type Verdict =
  | { ok: true; standby: false; claims: RoomClaims }
  | { ok: true; standby: true; claims: StandbyClaims }
  | { ok: false; reason: string };

const hasSessionId = (m: Record<string, unknown>) =>
  typeof m.session_id === 'number' || (typeof m.session_id === 'string' && /^\d+$/.test(m.session_id));

export function checkJanusRequest(tokens: JanusTokens, message: unknown): Verdict {
  if (!message || typeof message !== 'object' || Array.isArray(message)) return { ok: false, reason: 'not a JSON object' };
  const m = message as Record<string, unknown>;
  const verb = m.janus;
  if (typeof verb !== 'string' || !CORE.has(verb)) return { ok: false, reason: `janus: '${String(verb)}' is not allowed` };
  const claims = typeof m.token === 'string' ? tokens.verify(m.token) : null;
  // the server's own token has no participant: it is for the server's direct connection, never for the gate
  if (!claims || claims.participant === null) return { ok: false, reason: 'token: missing, invalid or expired' };
  const { room, participant } = claims;
  if (room === null && participant.role !== 'agent') return { ok: false, reason: 'token: missing, invalid or expired' };
  if (verb === 'claim' && !hasSessionId(m)) return { ok: false, reason: 'session_id: missing' };
  if (verb === 'attach' && m.plugin !== VIDEOROOM) return { ok: false, reason: `plugin: only ${VIDEOROOM}` };
  if (room === null) {
    if (!STANDBY.has(verb)) return { ok: false, reason: `token: a standby token cannot ${verb} (it names no room)` };
    return { ok: true, standby: true, claims: { ...claims, room, participant: { role: 'agent', username: participant.username } } };
  }
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
  return { ok: true, standby: false, claims: { ...claims, room, participant } };
}
