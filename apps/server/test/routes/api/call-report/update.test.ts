import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { createFakeMediaRooms } from '../../../helpers/fakes.ts';
import { addCompany, answeredCall, bearer, login, openCall, registerGuest } from '../../../helpers/fixtures.ts';
import type { RegisteredGuest } from '../../../helpers/fixtures.ts';

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

/** Who answered a call is the server's record (the first console media grant), never the guest's word. */
describe.each(dialects())('the agent of a call report (%s)', (dialect) => {
  let t: TestContext;
  let agentJid: string;
  beforeAll(async () => {
    t = await createTestContext(dialect, { deps: { mediaRooms: createFakeMediaRooms() } });
    const row = await t.db.kysely.selectFrom('users').select('xmpp_username').where('email', '=', DEMO.agentEmail).executeTakeFirstOrThrow();
    agentJid = `${row.xmpp_username}@lobby.local`;
  });
  afterAll(async () => t.close());

  const agentOf = async (callId: string) =>
    (await t.db.kysely.selectFrom('call_reports').select('agent').where('call_id', '=', callId).executeTakeFirstOrThrow()).agent;
  const update = (g: RegisteredGuest, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: '/api/call-report/update', headers: bearer(g.access_token), payload });

  it('when an agent takes the media of a call the guest named someone else in, then the report names the agent who did', async () => {
    const g = await registerGuest(t.app);
    const call = await openCall(t.app, g);
    await update(g, { call_id: call.callId, agent: 'somebody-else@lobby.local' });

    const res = await t.app.inject({ method: 'POST', url: `/api/console/calls/${call.callId}/media`, headers: { cookie: await login(t.app, DEMO.agentEmail, DEMO.agentPassword) } });

    expect(res.statusCode).toBe(200);
    expect(await agentOf(call.callId)).toBe(agentJid);
  });

  it("when the guest names another agent after the answer, then the report keeps the answering agent and the answer does not list 'agent'", async () => {
    const g = await registerGuest(t.app);
    const call = await answeredCall(t.app, g);

    const res = await update(g, { call_id: call.callId, agent: 'somebody-else@lobby.local', service_type: 'talk' });

    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: { updated: string[] } }>().data.updated).toEqual(['service_type']);
    expect(await agentOf(call.callId)).toBe(agentJid);
  });

  it('when a supervisor joins an answered call, then the report still names the agent who answered', async () => {
    const g = await registerGuest(t.app);
    const call = await answeredCall(t.app, g);

    const joined = await t.app.inject({ method: 'POST', url: `/api/console/calls/${call.callId}/media`, headers: { cookie: await login(t.app, DEMO.adminEmail, DEMO.adminPassword) } });

    expect(joined.statusCode).toBe(200);
    expect(await agentOf(call.callId)).toBe(agentJid);
  });
});
