import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { bearer, openCall, registerGuest } from '../../../helpers/fixtures.ts';

describe.each(dialects())('POST /api/call-report/hold-call (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect);
  });
  afterAll(async () => t.close());

  const hold = (token: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/call-report/hold-call', headers: bearer(token), payload });

  it('when a held call resumes under a new id, then 201 {id} and the new report links the origin and the held call', async () => {
    const g = await registerGuest(t.app);
    const first = await openCall(t.app, g);
    const newCallId = `${g.username}--resumed1`;

    const res = await hold(g.access_token, { origin_call_id: first.callId, current_call_id: first.callId, new_call_id: newCallId, guest_username: g.username });

    expect(res.statusCode).toBe(201);
    const { id } = res.json<{ data: { id: number } }>().data;
    const row = await t.db.kysely.selectFrom('call_reports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ call_id: newCallId, origin_call_id: first.callId, previous_call_id: first.callId, status: 'ok', guest_username: g.username });

    // A second hold keeps the chain's origin.
    const third = await hold(g.access_token, { origin_call_id: first.callId, current_call_id: newCallId, new_call_id: `${g.username}--resumed2` });
    const row3 = await t.db.kysely.selectFrom('call_reports').selectAll().where('id', '=', third.json<{ data: { id: number } }>().data.id).executeTakeFirstOrThrow();
    expect(row3).toMatchObject({ origin_call_id: first.callId, previous_call_id: newCallId });
  });

  it('when the held call was never reported, then 404 names current_call_id', async () => {
    const g = await registerGuest(t.app);
    const res = await hold(g.access_token, { origin_call_id: `${g.username}--a`, current_call_id: `${g.username}--a`, new_call_id: `${g.username}--b` });
    expect(res.statusCode).toBe(404);
    expect(res.json<{ message: string }>().message).toContain('call_id');
  });

  it('when the new call id already exists, then 409 names new_call_id', async () => {
    const g = await registerGuest(t.app);
    const a = await openCall(t.app, g);
    const b = await openCall(t.app, g);
    const res = await hold(g.access_token, { origin_call_id: a.callId, current_call_id: a.callId, new_call_id: b.callId });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toContain('new_call_id');
  });

  it('when an id is malformed, then 400 names it', async () => {
    const g = await registerGuest(t.app);
    const res = await hold(g.access_token, { origin_call_id: 'nope', current_call_id: `${g.username}--a`, new_call_id: `${g.username}--b` });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain('origin_call_id');
  });
});
