import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { loadConfig } from '../../../../src/config.ts';

/**
 * The session cookie is Secure whenever the request came over HTTPS (here: through the
 * configured proxy, which says so in X-Forwarded-Proto), HSTS is sent over HTTPS only, and a client that is
 * not the configured proxy cannot claim HTTPS by sending the header itself.
 */
const loginBody = { email: DEMO.adminEmail, password: DEMO.adminPassword };

describe('transport: Secure cookies and HSTS over HTTPS only', () => {
  let behindProxy: TestContext;
  let direct: TestContext;
  beforeAll(async () => {
    behindProxy = await createTestContext('sqlite', { config: { trustProxy: ['127.0.0.1'] } });
    direct = await createTestContext('sqlite');
  });
  afterAll(async () => {
    await behindProxy.close();
    await direct.close();
  });

  const loginVia = (t: TestContext, remoteAddress: string, proto?: string) =>
    t.app.inject({ method: 'POST', url: '/api/console/login', payload: loginBody, remoteAddress, headers: proto ? { 'x-forwarded-proto': proto } : {} });
  const sessionCookie = (res: Awaited<ReturnType<typeof loginVia>>) => res.cookies.find((c) => c.name === 'lobby_session');

  it('when the configured proxy forwards an HTTPS request, then the session cookie is Secure and HSTS is sent', async () => {
    const res = await loginVia(behindProxy, '127.0.0.1', 'https');
    expect(res.statusCode).toBe(200);
    expect(sessionCookie(res)?.secure).toBe(true);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('when the request is plain HTTP, then no Secure flag (the browser would drop the cookie) and no HSTS', async () => {
    const res = await loginVia(behindProxy, '127.0.0.1', 'http');
    expect(sessionCookie(res)?.secure).toBeFalsy();
    expect(res.headers['strict-transport-security']).toBeUndefined();
    const health = await direct.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.headers['strict-transport-security']).toBeUndefined();
  });

  it('when a client that is not the configured proxy sends X-Forwarded-Proto: https, then it is not believed', async () => {
    const res = await loginVia(behindProxy, '203.0.113.9', 'https');
    expect(res.statusCode).toBe(200);
    expect(sessionCookie(res)?.secure).toBeFalsy();
    expect(res.headers['strict-transport-security']).toBeUndefined();
    // and with no proxy configured, nobody is
    const noProxy = await loginVia(direct, '127.0.0.1', 'https');
    expect(sessionCookie(noProxy)?.secure).toBeFalsy();
  });

  it('when TRUST_PROXY is set, then it names addresses (1/true mean loopback) and anything else is refused', () => {
    const base = { NODE_ENV: 'test' };
    expect(loadConfig(base).trustProxy).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: '1' }).trustProxy).toEqual(['loopback']);
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.5, 192.168.0.0/16' }).trustProxy).toEqual(['10.0.0.5', '192.168.0.0/16']);
    expect(() => loadConfig({ ...base, TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });
});
