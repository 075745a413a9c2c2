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

export function createApiTokens(secret: string, ttlSeconds = 7200, now: () => number = Date.now): ApiTokens {
  return {
    mint({ username, companyId }) {
      const exp = Math.floor(now() / 1000) + ttlSeconds;
      return { token: signJwt({ sub: username, cid: companyId, exp, typ: 'guest' }, secret), expiresIn: ttlSeconds };
    },
    verify(token) {
      const r = verifyJwt(token, secret, now());
      if (!r.ok) return null;
      const { sub, cid, typ } = r.payload;
      if (typ !== 'guest' || typeof sub !== 'string' || typeof cid !== 'number' || !Number.isInteger(cid)) return null;
      return { username: sub, companyId: cid };
    },
  };
}
