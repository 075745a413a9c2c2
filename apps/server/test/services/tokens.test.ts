import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signJwt, verifyJwt } from '../../src/services/jwt.ts';
import { createApiTokens, createXmppTokens } from '../../src/services/tokens.ts';

const SECRET = 'a-secret-of-at-least-32-characters-long';
const decode = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;

describe('xmppTokens', () => {
  it('when a JID is minted, then the token is an HS256 JWT {jid, exp} that the shared secret verifies', () => {
    const now = 1_700_000_000_000;
    const { token, expiresIn } = createXmppTokens(SECRET, 3600, () => now).mint('g0123456789abcdef@guest.lobby.local');

    const [head, body, sig] = token.split('.') as [string, string, string];
    expect(JSON.parse(Buffer.from(head, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(decode(token)).toEqual({ jid: 'g0123456789abcdef@guest.lobby.local', exp: now / 1000 + 3600 });
    expect(crypto.createHmac('sha256', SECRET).update(`${head}.${body}`).digest('base64url')).toBe(sig);
    expect(expiresIn).toBe(3600);
  });
});

describe('apiTokens', () => {
  it('when a guest token is minted, then it verifies to the same username and company', () => {
    const tokens = createApiTokens(SECRET);
    const { token } = tokens.mint({ username: 'g0123456789abcdef', companyId: 18 });
    expect(tokens.verify(token)).toEqual({ username: 'g0123456789abcdef', companyId: 18 });
  });

  it('when the token has expired, then it is rejected', () => {
    let now = 1_700_000_000_000;
    const tokens = createApiTokens(SECRET, 7200, () => now);
    const { token } = tokens.mint({ username: 'g0123456789abcdef', companyId: 18 });
    now += 7200 * 1000;
    expect(tokens.verify(token)).toBeNull();
  });

  it('when a token verified before (and so remembered) expires, then its next use is rejected, and a changed copy of it never passes', () => {
    let now = 1_700_000_000_000;
    const tokens = createApiTokens(SECRET, 7200, () => now);
    const { token } = tokens.mint({ username: 'g0123456789abcdef', companyId: 18 });
    const first = tokens.verify(token);
    expect(first).toEqual({ username: 'g0123456789abcdef', companyId: 18 });
    if (first) first.companyId = 19; // a caller changing its copy changes nothing for the next request
    expect(tokens.verify(token)).toEqual({ username: 'g0123456789abcdef', companyId: 18 });
    expect(tokens.verify(`${token}x`)).toBeNull();
    now += 7200 * 1000 - 1;
    expect(tokens.verify(token)).not.toBeNull();
    now += 1;
    expect(tokens.verify(token)).toBeNull();
  });

  it('when the payload is altered or signed with another secret, then it is rejected', () => {
    const tokens = createApiTokens(SECRET);
    const { token } = tokens.mint({ username: 'g0123456789abcdef', companyId: 18 });
    const [h, , s] = token.split('.');
    const forgedBody = Buffer.from(JSON.stringify({ sub: 'g0123456789abcdef', cid: 19, exp: 9e9, typ: 'guest' })).toString('base64url');
    expect(tokens.verify(`${h}.${forgedBody}.${s}`)).toBeNull();
    expect(tokens.verify(createApiTokens('another-secret-of-32-characters-or-more').mint({ username: 'g0123456789abcdef', companyId: 18 }).token)).toBeNull();
    expect(tokens.verify('not.a.jwt')).toBeNull();
    expect(tokens.verify('')).toBeNull();
  });

  it('when an XMPP credential is offered as an API token, then it is rejected', () => {
    const xmpp = createXmppTokens(SECRET).mint('g0123456789abcdef@guest.lobby.local');
    expect(createApiTokens(SECRET).verify(xmpp.token)).toBeNull();
  });

  it('when a token claims alg none, then verification fails', () => {
    const body = Buffer.from(JSON.stringify({ sub: 'x', cid: 1, exp: 9e9 })).toString('base64url');
    const head = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    expect(verifyJwt(`${head}.${body}.`, SECRET).ok).toBe(false);
    expect(verifyJwt(signJwt({ exp: 9e9 }, SECRET), SECRET).ok).toBe(true);
  });
});
