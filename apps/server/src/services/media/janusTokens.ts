/**
 * Janus signed tokens (janus.jcfg `token_auth` + `token_auth_secret`, Janus 1.1 src/auth.c):
 *
 *   `{expiry},janus,janus.plugin.videoroom,room={room}:{base64(HMAC-SHA1(secret, data))}`
 *
 * Janus checks the signature, the expiry (seconds) and that the plugin is listed; it ignores the other
 * items. The `room=` item is ours: Janus would accept the token for any room, so the Lobby server's gate
 * in front of Janus (web/janusGate.ts) reads it to hold the session to that one call's room.
 * One token per participant and call, minted by an authenticated API answer (docs/security.md).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const VIDEOROOM = 'janus.plugin.videoroom';

export interface JanusTokenClaims {
  /** epoch seconds */
  expiry: number;
  /** the one videoroom room this token may join; null for the server's own token */
  room: string | null;
}

export interface JanusTokens {
  /** A token for one room; `room: null` is the server's own (it never passes the public gate). */
  mint(room: string | null, ttlSeconds: number): { token: string; expiresIn: number };
  /** The claims of a token this secret signed and that has not expired, or null. */
  verify(token: string): JanusTokenClaims | null;
}

/** Room ids are call ids ([A-Za-z0-9_-] and `--`): nothing that could break the `,`/`:` framing. */
const SAFE_ROOM = /^[A-Za-z0-9_-]{1,140}$/;

export function createJanusTokens(secret: string, now: () => number = Date.now): JanusTokens {
  const sign = (data: string) => createHmac('sha1', secret).update(data).digest('base64');
  return {
    mint(room, ttlSeconds) {
      if (room !== null && !SAFE_ROOM.test(room)) throw new Error(`room: not a call id: ${room}`);
      const expiry = Math.floor(now() / 1000) + ttlSeconds;
      const data = [String(expiry), 'janus', VIDEOROOM, ...(room === null ? [] : [`room=${room}`])].join(',');
      return { token: `${data}:${sign(data)}`, expiresIn: ttlSeconds };
    },
    verify(token) {
      const colon = token.indexOf(':');
      if (colon < 0 || token.indexOf(':', colon + 1) >= 0) return null;
      const data = token.slice(0, colon);
      const given = Buffer.from(token.slice(colon + 1));
      const expected = Buffer.from(sign(data));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      const [expiryText, realm, ...items] = data.split(',');
      const expiry = Number(expiryText);
      if (realm !== 'janus' || !Number.isInteger(expiry) || expiry < now() / 1000) return null;
      if (!items.includes(VIDEOROOM)) return null;
      const rooms = items.filter((i) => i.startsWith('room=')).map((i) => i.slice(5));
      if (rooms.length > 1) return null;
      return { expiry, room: rooms[0] ?? null };
    },
  };
}
