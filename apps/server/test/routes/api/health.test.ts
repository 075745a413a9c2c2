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
    expect(res.json()).toEqual({
      data: { server: 'up', database: 'up', ejabberd: 'up', janus: 'up', janusNodes: [{ name: 'janus-1', state: 'up' }] },
    });
  });

  it('when ejabberd or Janus is down, then 503 says which', async () => {
    t.ejabberd.up = false;
    const a = await t.app.inject({ method: 'GET', url: '/api/health' });
    t.ejabberd.up = true;
    t.janus.up = false;
    const b = await t.app.inject({ method: 'GET', url: '/api/health' });
    t.janus.up = true;

    expect(a.statusCode).toBe(503);
    expect(a.json()).toMatchObject({ data: { server: 'up', database: 'up', ejabberd: 'down', janus: 'up' } });
    expect(b.statusCode).toBe(503);
    expect(b.json<{ data: { janus: string } }>().data.janus).toBe('down');
  });

  it('when one of two Janus nodes is down, then 200 (calls go to the other) and the lost node is named; both down, 503', async () => {
    t.janus.others.set('janus-2', true);
    t.janus.up = false;
    const one = await t.app.inject({ method: 'GET', url: '/api/health' });
    t.janus.others.set('janus-2', false);
    const both = await t.app.inject({ method: 'GET', url: '/api/health' });
    t.janus.up = true;
    t.janus.others.clear();

    expect(one.statusCode).toBe(200);
    expect(one.json<{ data: unknown }>().data).toMatchObject({
      janus: 'up',
      janusNodes: [
        { name: 'janus-1', state: 'down' },
        { name: 'janus-2', state: 'up' },
      ],
    });
    expect(both.statusCode).toBe(503);
    expect(both.json<{ data: { janus: string } }>().data.janus).toBe('down');
  });

  it('when the real clients point at closed ports, then they report down quickly', async () => {
    const { createEjabberdHttpClient } = await import('../../../src/services/ejabberd.ts');
    const { createJanusHttpClient } = await import('../../../src/services/janus.ts');
    const started = Date.now();
    const ej = createEjabberdHttpClient({ apiUrl: 'http://127.0.0.1:1/api', host: 'lobby.local', guestHost: 'guest.lobby.local', mucService: 'conference.lobby.local' });
    expect(await ej.status()).toBe(false);
    expect(await createJanusHttpClient([{ name: 'janus-1', httpUrl: 'http://127.0.0.1:1/janus' }, { name: 'janus-2', httpUrl: 'http://127.0.0.1:2/janus' }]).status()).toEqual([
      { name: 'janus-1', up: false },
      { name: 'janus-2', up: false },
    ]);
    expect(Date.now() - started).toBeLessThan(4000);
  });
});
