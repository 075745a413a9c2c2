import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { bearer, openCall, registerGuest } from '../../../helpers/fixtures.ts';

const URL = '/api/call-report/update-timestamp';

describe.each(dialects())('PUT /api/call-report/update-timestamp (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect);
  });
  afterAll(async () => t.close());

  const report = (id: number) => t.db.kysely.selectFrom('call_reports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('when a sendBeacon text/plain body carries the token, then the flagged timestamps are set to now', async () => {
    const g = await registerGuest(t.app);
    const { callId, reportId } = await openCall(t.app, g);
    t.clock.now += 5000;

    const res = await t.app.inject({
      method: 'PUT',
      url: URL,
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      payload: JSON.stringify({ call_id: callId, access_token: g.access_token, guest_exit_timestamp: true, call_ended_timestamp: true }),
    });

    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { id: reportId, updated: ['guest_exit_timestamp', 'call_ended_timestamp'] } });
    const row = await report(reportId);
    expect(row.guest_exit_at).toBe(t.clock.now);
    expect(row.call_ended_at).toBe(t.clock.now);
    expect(row.call_answered_at).toBeNull();
  });

  it('when fetch keepalive sends JSON with the bearer header, then it works too', async () => {
    const g = await registerGuest(t.app);
    const { callId, reportId } = await openCall(t.app, g);
    const res = await t.app.inject({
      method: 'PUT',
      url: URL,
      headers: bearer(g.access_token),
      payload: { call_id: callId, call_answered_timestamp: true, call_initiated_timestamp: true },
    });
    expect(res.statusCode).toBe(200);
    const row = await report(reportId);
    expect(row.call_answered_at).toBe(t.clock.now);
  });

  it('when there is no token anywhere, then 401', async () => {
    const g = await registerGuest(t.app);
    const { callId } = await openCall(t.app, g);
    const res = await t.app.inject({
      method: 'PUT',
      url: URL,
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      payload: JSON.stringify({ call_id: callId, guest_exit_timestamp: true }),
    });
    expect(res.statusCode).toBe(401);
  });

  it("when another guest's token is used, then 403 and nothing changes", async () => {
    const owner = await registerGuest(t.app);
    const intruder = await registerGuest(t.app);
    const { callId, reportId } = await openCall(t.app, owner);
    const res = await t.app.inject({
      method: 'PUT',
      url: URL,
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      payload: JSON.stringify({ call_id: callId, access_token: intruder.access_token, call_ended_timestamp: true }),
    });
    expect(res.statusCode).toBe(403);
    expect((await report(reportId)).call_ended_at).toBeNull();
  });

  it('when the call was never reported, then 404 names call_id', async () => {
    const g = await registerGuest(t.app);
    const res = await t.app.inject({ method: 'PUT', url: URL, headers: bearer(g.access_token), payload: { call_id: `${g.username}--never` } });
    expect(res.statusCode).toBe(404);
    expect(res.json<{ message: string }>().message).toContain('call_id');
  });

  it('when the text/plain body is not JSON, then 400 (not 500)', async () => {
    const res = await t.app.inject({ method: 'PUT', url: URL, headers: { 'content-type': 'text/plain' }, payload: 'call_id=x' });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain('body');
  });
});
