import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { addCompany, bearer, openCall, registerGuest } from '../../../helpers/fixtures.ts';

describe.each(dialects())('PUT /api/call-report/update (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect);
  });
  afterAll(async () => t.close());

  it('when the guest reports an ICE failure, then success and the SDP are stored', async () => {
    const g = await registerGuest(t.app);
    const { callId, reportId } = await openCall(t.app, g);

    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/call-report/update',
      headers: bearer(g.access_token),
      payload: { call_id: callId, success: false, guest_local_sdp: 'v=0\r\n', agent: 'agent-18@lobby.local' },
    });

    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { id: reportId, updated: ['success', 'guest_local_sdp', 'agent'] } });
    const row = await t.db.kysely.selectFrom('call_reports').selectAll().where('id', '=', reportId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ success: 0, guest_local_sdp: 'v=0\r\n', agent: 'agent-18@lobby.local', guest_remote_sdp: null });
  });

  it('when there is no token, then 401; another guest, then 403', async () => {
    const owner = await registerGuest(t.app);
    const other = await registerGuest(t.app);
    const { callId } = await openCall(t.app, owner);
    const none = await t.app.inject({ method: 'PUT', url: '/api/call-report/update', payload: { call_id: callId, success: true } });
    const foreign = await t.app.inject({
      method: 'PUT',
      url: '/api/call-report/update',
      headers: bearer(other.access_token),
      payload: { call_id: callId, success: true },
    });
    expect(none.statusCode).toBe(401);
    expect(foreign.statusCode).toBe(403);
  });

  it("when a guest of another company uses the same username prefix trick, then 403", async () => {
    const otherCompany = await addCompany(t.db, { name: 'Other' });
    const owner = await registerGuest(t.app);
    const stranger = await registerGuest(t.app, { companyId: otherCompany });
    const { callId } = await openCall(t.app, owner);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/call-report/update',
      headers: bearer(stranger.access_token),
      payload: { call_id: callId, success: true },
    });
    expect(res.statusCode).toBe(403);
  });

  it('when a field has the wrong type, then 400 names it', async () => {
    const g = await registerGuest(t.app);
    const { callId } = await openCall(t.app, g);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/call-report/update',
      headers: bearer(g.access_token),
      payload: { call_id: callId, success: 'maybe' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain('success');
  });
});
