/**
 * Whose is a Janus session? The gate asks when a browser claims a session on a new websocket (janus.js
 * `reconnect` after the gate or nginx restarted: docs/protocol.md "Session reclaim") or names an HTTP
 * session the gate has no record of (a restarted gate forgot them). The gate keeps no state worth
 * keeping across a restart, so it asks Janus's admin API (loopback only, admin_secret): a session belongs
 * to a token of room R and participant P when every handle of it that is in a room is in R, and at least
 * one is, and every handle was attached with a token of P (`handle_info` tells each handle's token:
 * Janus 1.1 janus.c keeps the token a handle was attached with). An agent's standby token (no room:
 * a warm session before it answers) owns a session when it has a handle and every handle was attached
 * with a token of that agent.
 *
 * Its publisher handles come back too: the gate names their recordings (web/janusGate.ts).
 */
import { randomBytes } from 'node:crypto';
import type { JanusTokens, Participant } from './janusTokens.ts';

export interface SessionHandle {
  handle: string;
  room: string | null;
  /** a publisher handle, and whether it publishes a screen (`{display}-screen`) */
  publisher: { screen: boolean } | null;
  /** the token the handle was attached with (null when Janus tells none) */
  token: string | null;
}

export interface JanusSessions {
  /** The session's handles, or null when Janus has no such session (or cannot be asked). */
  handles(session: string): Promise<SessionHandle[] | null>;
}

export function createJanusSessions(adminUrl: string, adminSecret: string): JanusSessions {
  const base = adminUrl.replace(/\/+$/, '');
  const post = async (path: string, janus: string): Promise<Record<string, unknown> | null> => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ janus, transaction: randomBytes(8).toString('hex'), admin_secret: adminSecret }),
      signal: AbortSignal.timeout(5000),
    });
    const answer = (await res.json()) as Record<string, unknown>;
    return answer.janus === 'success' ? answer : null;
  };
  return {
    async handles(session) {
      if (!/^\d+$/.test(session)) return null;
      try {
        const list = await post(`/${session}`, 'list_handles');
        if (!list || !Array.isArray(list.handles)) return null;
        const handles: SessionHandle[] = [];
        for (const id of list.handles as unknown[]) {
          const info = await post(`/${session}/${String(id)}`, 'handle_info');
          handles.push(toHandle(String(id), (info?.info ?? null) as Record<string, unknown> | null));
        }
        return handles;
      } catch {
        return null;
      }
    },
  };
}

/** Reads a handle's videoroom state from Janus's handle_info (its `plugin_specific`). */
export function toHandle(handle: string, info: Record<string, unknown> | null): SessionHandle {
  const specific = (info?.plugin_specific ?? null) as Record<string, unknown> | null;
  const room = specific && (typeof specific.room === 'string' || typeof specific.room === 'number') ? String(specific.room) : null;
  const publisher =
    specific?.type === 'publisher'
      ? { screen: typeof specific.display === 'string' && specific.display.endsWith('-screen') }
      : null;
  const token = typeof info?.token === 'string' ? info.token : null;
  return { handle, room, publisher, token };
}

/** True when the session is of this room: some handle in it, none in another (see above). */
export function sessionOfRoom(handles: SessionHandle[] | null, room: string): boolean {
  if (!handles) return false;
  const rooms = handles.map((h) => h.room).filter((r): r is string => r !== null);
  return rooms.length > 0 && rooms.every((r) => r === room);
}

/**
 * True when the session has a handle and every handle was attached with a token our secret signed for
 * this participant (expired or not: a long call's handles keep their attach token).
 */
export function sessionOfParticipant(handles: SessionHandle[] | null, participant: Participant, tokens: Pick<JanusTokens, 'read'>): boolean {
  if (!handles || handles.length === 0) return false;
  return handles.every((h) => {
    const of = h.token === null ? null : tokens.read(h.token)?.participant;
    return !!of && of.role === participant.role && of.username === participant.username;
  });
}
