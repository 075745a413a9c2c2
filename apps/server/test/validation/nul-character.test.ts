import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../helpers/context.ts';
import type { TestContext } from '../helpers/context.ts';
import { bearer, login, registerGuest } from '../helpers/fixtures.ts';
import type { RegisteredGuest } from '../helpers/fixtures.ts';

/**
 * U+0000 anywhere in a request (the fuzz found `GET /api/appointment/%00` answering 500 on PostgreSQL, whose
 * text cannot hold the character): every route refuses it with 400 naming the field, after the caller's
 * credentials are checked, and nothing is stored.
 */
describe.each(dialects())('the NUL character in a request (%s)', (dialect) => {
  let t: TestContext;
  let guest: RegisteredGuest;
  let admin: string;

  beforeAll(async () => {
    t = await createTestContext(dialect);
    guest = await registerGuest(t.app);
    admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
  });
  afterAll(async () => t.close());

  it('when a guest looks up the appointment reference %00, then 400 names params.reference', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/appointment/%00', headers: bearer(guest.access_token) });

    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe('params.reference: must not contain the NUL character (U+0000)');
  });

  it('when a reference holds a NUL between other characters and a query too, then the path is named first', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/appointment/ab%00cd?companyId=%00', headers: bearer(guest.access_token) });

    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/^params\.reference: /);
  });

  it('when a query value holds a NUL, then 400 names the query field', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/guest/details?username=${guest.username}%00`, headers: bearer(guest.access_token) });

    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/^querystring\.username: must not contain the NUL/);
  });

  it('when an admin names an assignment with a NUL, then 400 names body.name and no assignment is stored', async () => {
    const before = await t.db.kysely.selectFrom('assignments').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();

    const res = await t.app.inject({ method: 'POST', url: '/api/admin/assignments', headers: { cookie: admin }, payload: { name: 'Sa\u0000les', type: 'queue' } });

    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe('body.name: must not contain the NUL character (U+0000)');
    const after = await t.db.kysely.selectFrom('assignments').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('when a NUL sits deep in a body (a form field label), then 400 names its path', async () => {
    const form = { kind: 'rating', title: 'R', fields: [{ key: 'q', type: 'text', label: 'Q\u0000', required: false, order: 0 }] };

    const res = await t.app.inject({ method: 'POST', url: '/api/admin/forms', headers: { cookie: admin }, payload: form });

    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe('body.fields.0.label: must not contain the NUL character (U+0000)');
  });

  it('when a body property name holds a NUL, then 400 shows the name escaped', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/assignments',
      headers: { cookie: admin, 'content-type': 'application/json' },
      payload: '{"na\\u0000me":"x","type":"queue"}',
    });

    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe('body.na\\u0000me: must not contain the NUL character (U+0000)');
  });

  it('when a caller without credentials sends a NUL, then it hears 401, not what the route would refuse', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/appointment/%00' });

    expect(res.statusCode).toBe(401);
  });
});
