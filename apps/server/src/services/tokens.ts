import { signJwt, verifyJwt } from './jwt.ts';

export interface MintedToken {
  token: string;
  expiresIn: number;
}

/** XMPP credentials: HS256 `{jid, exp}` with XMPP_JWT_SECRET, checked by ejabberd (`auth_method: [jwt]`). */
export interface XmppTokens {
  mint(jid: string): MintedToken;
}

export function createXmppTokens(secret: string, ttlSeconds = 3600, now: () => number = Date.now): XmppTokens {
  return {
    mint(jid) {
      const exp = Math.floor(now() / 1000) + ttlSeconds;
      return { token: signJwt({ jid, exp }, secret), expiresIn: ttlSeconds };
    },
  };
}

export interface GuestClaims {
  username: string;
  companyId: number;
}

/** Guest API access tokens: HS256 `{sub: username, cid: companyId, exp}` with API_TOKEN_SECRET. */
export interface ApiTokens {
  mint(claims: GuestClaims): MintedToken;
  /** null when the token is malformed, forged or expired */
  verify(token: string): GuestClaims | null;
}

/**
 * Tokens already verified, with their expiry: a guest sends the same token on every request of its visit,
 * and checking its HMAC each time was ≈ 5 % of the CPU of POST /api/call-report/add (bench/api). Only valid
 * tokens are kept, by their whole text, and their expiry is checked on every use as before.
 */
const VERIFIED_CAP = 10_000;

export function createApiTokens(secret: string, ttlSeconds = 7200, now: () => number = Date.now): ApiTokens {
  const verified = new Map<string, { claims: GuestClaims; expiresAtMs: number }>();
  return {
    mint({ username, companyId }) {
      const exp = Math.floor(now() / 1000) + ttlSeconds;
      return { token: signJwt({ sub: username, cid: companyId, exp, typ: 'guest' }, secret), expiresIn: ttlSeconds };
    },
    verify(token) {
      const at = now();
      const known = verified.get(token);
      if (known) {
        if (known.expiresAtMs > at) return { ...known.claims };
        verified.delete(token);
        return null;
      }
      const r = verifyJwt(token, secret, at);
      if (!r.ok) return null;
      const { sub, cid, typ, exp } = r.payload;
      if (typ !== 'guest' || typeof sub !== 'string' || typeof cid !== 'number' || !Number.isInteger(cid)) return null;
      const claims = { username: sub, companyId: cid };
      if (verified.size >= VERIFIED_CAP) verified.clear();
      verified.set(token, { claims, expiresAtMs: (exp as number) * 1000 });
      return { ...claims };
    },
  };
}
