import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, dialects } from '../../helpers/context.ts';
import type { TestContext } from '../../helpers/context.ts';

describe.each(dialects())('GET /api/health (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect, { seed: false });
  });
  afterAll(async () => t.close());

  it('when everything answers, then 200 with all up (public: no credentials needed)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { server: 'up', database: 'up', ejabberd: 'up', janus: 'up' } });
  });

  it('when ejabberd or Janus is down, then 503 says which', async () => {
    t.ejabberd.up = false;
    const a = await t.app.inject({ method: 'GET', url: '/api/health' });
    t.ejabberd.up = true;
    t.janus.up = false;
    const b = await t.app.inject({ method: 'GET', url: '/api/health' });
    t.janus.up = true;

    expect(a.statusCode).toBe(503);
    expect(a.json()).toEqual({ data: { server: 'up', database: 'up', ejabberd: 'down', janus: 'up' } });
    expect(b.statusCode).toBe(503);
    expect(b.json<{ data: { janus: string } }>().data.janus).toBe('down');
  });

  it('when the real clients point at closed ports, then they report down quickly', async () => {
    const { createEjabberdHttpClient } = await import('../../../src/services/ejabberd.ts');
    const { createJanusHttpClient } = await import('../../../src/services/janus.ts');
    const started = Date.now();
    const ej = createEjabberdHttpClient({ apiUrl: 'http://127.0.0.1:1/api', host: 'lobby.local', guestHost: 'guest.lobby.local', mucService: 'conference.lobby.local' });
    expect(await ej.status()).toBe(false);
    expect(await createJanusHttpClient('http://127.0.0.1:1/janus').status()).toBe(false);
    expect(Date.now() - started).toBeLessThan(4000);
  });
});
