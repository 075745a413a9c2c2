/**
 * Janus signed tokens (janus.jcfg `token_auth` + `token_auth_secret`, Janus 1.1 src/auth.c):
 *
 *   `{expiry},janus,janus.plugin.videoroom,room={room},as={guest|agent},user={username}:{base64(HMAC-SHA1(secret, data))}`
 *
 * Janus checks the signature, the expiry (seconds) and that the plugin is listed; it ignores the other
 * items. `room=`, `as=` and `user=` are ours: Janus would accept the token for any room, so the Lobby
 * server's gate in front of Janus (web/janusGate.ts) reads them to hold the session to that one call's
 * room and to name the participant's recording after who it is (not after what its browser says).
 * One token per participant and call, minted by an authenticated API answer (docs/security.md).
 *
 * An agent's standby token (`POST /api/console/media/standby`) has `as=agent,user=…` and no `room=`: it
 * keeps a Janus session and its videoroom handles warm before the agent answers, and opens no room
 * (janusPolicy.ts). The server's own token has neither room nor participant.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const VIDEOROOM = 'janus.plugin.videoroom';

export interface Participant {
  role: 'guest' | 'agent';
  /** the guest's username or the agent's XMPP username */
  username: string;
}

export interface JanusTokenClaims {
  /** epoch seconds */
  expiry: number;
  /** the one videoroom room this token may join; null for the server's own token and an agent's standby token */
  room: string | null;
  /** who the token was minted for (absent on the server's own token) */
  participant: Participant | null;
}

export interface JanusTokens {
  /**
   * A token for one room; `room: null` without a participant is the server's own (it never passes the
   * public gate), with an agent it is that agent's standby token.
   */
  mint(room: string | null, ttlSeconds: number, participant?: Participant): { token: string; expiresIn: number };
  /** The claims of a token this secret signed and that has not expired, or null. */
  verify(token: string): JanusTokenClaims | null;
  /**
   * The claims of a token this secret signed, expired or not, or null: whom a handle Janus still holds
   * was attached for (its attach token may be hours old in a long call; janusSessions.ts).
   */
  read(token: string): JanusTokenClaims | null;
}

/** Room ids are call ids, usernames are ours: nothing that could break the `,`/`:`/`=` framing. */
const SAFE_ROOM = /^[A-Za-z0-9_-]{1,160}$/;
const SAFE_USER = /^[A-Za-z0-9_.-]{1,128}$/;

export function createJanusTokens(secret: string, now: () => number = Date.now): JanusTokens {
  const sign = (data: string) => createHmac('sha1', secret).update(data).digest('base64');
  function read(token: string): JanusTokenClaims | null {
    const colon = token.indexOf(':');
    if (colon < 0 || token.indexOf(':', colon + 1) >= 0) return null;
    const data = token.slice(0, colon);
    const given = Buffer.from(token.slice(colon + 1));
    const expected = Buffer.from(sign(data));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const [expiryText, realm, ...items] = data.split(',');
    const expiry = Number(expiryText);
    if (realm !== 'janus' || !Number.isInteger(expiry)) return null;
    if (!items.includes(VIDEOROOM)) return null;
    const value = (key: string) => {
      const found = items.filter((i) => i.startsWith(`${key}=`)).map((i) => i.slice(key.length + 1));
      return found.length > 1 ? undefined : (found[0] ?? null);
    };
    const [room, role, user] = [value('room'), value('as'), value('user')];
    if (room === undefined || role === undefined || user === undefined) return null;
    const participant = (role === 'guest' || role === 'agent') && user ? { role, username: user } : null;
    return { expiry, room, participant } as JanusTokenClaims;
  }
  return {
    mint(room, ttlSeconds, participant) {
      if (room !== null && !SAFE_ROOM.test(room)) throw new Error(`room: not a call id: ${room}`);
      if (participant && !SAFE_USER.test(participant.username)) throw new Error(`username: unsafe: ${participant.username}`);
      const expiry = Math.floor(now() / 1000) + ttlSeconds;
      const items = [String(expiry), 'janus', VIDEOROOM];
      if (room !== null) items.push(`room=${room}`);
      if (participant) items.push(`as=${participant.role}`, `user=${participant.username}`);
      const data = items.join(',');
      return { token: `${data}:${sign(data)}`, expiresIn: ttlSeconds };
    },
    verify(token) {
      const claims = read(token);
      return claims && claims.expiry >= now() / 1000 ? claims : null;
    },
    read,
  };
}
