import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { createFakeMediaRooms } from '../../../helpers/fakes.ts';
import type { FakeMediaRooms } from '../../../helpers/fakes.ts';
import { addCompany, addUser, bearer, login, openCall, registerGuest } from '../../../helpers/fixtures.ts';

/** POST /api/console/calls/:callId/media: a console user's way into a call of its own company. */
describe.each(dialects())('console media grant (%s)', (dialect) => {
  let t: TestContext;
  let rooms: FakeMediaRooms;
  let agent: string;
  beforeAll(async () => {
    rooms = createFakeMediaRooms();
    t = await createTestContext(dialect, { deps: { mediaRooms: rooms } });
    agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
  });
  afterAll(async () => t.close());

  const media = (cookie: string, callId: string) => t.app.inject({ method: 'POST', url: `/api/console/calls/${callId}/media`, headers: { cookie } });

  it("when an agent asks for a call of its company, then it gets the call's grant, recorded as the company says", async () => {
    const call = await openCall(t.app, await registerGuest(t.app));
    const res = await media(agent, call.callId);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: { token: string } }>().data.token).toBe(`token-${call.callId}`);
    expect(rooms.grants.at(-1)).toMatchObject({ side: 'agent', callId: call.callId, companyId: DEMO.companyId, record: expect.any(Boolean) as boolean });
  });

  it("when the guest's room is not open, then 409", async () => {
    const call = await openCall(t.app, await registerGuest(t.app));
    rooms.roomOpen = false;
    try {
      expect((await media(agent, call.callId)).statusCode).toBe(409);
    } finally {
      rooms.roomOpen = true;
    }
  });

  it("when a user of another company asks, then 404 as for an unknown call", async () => {
    const call = await openCall(t.app, await registerGuest(t.app));
    const other = await addCompany(t.db, { name: 'Other media company' });
    const u = await addUser(t.db, { companyId: other, password: 'other-company-pw' });
    const res = await media(await login(t.app, u.email, u.password), call.callId);
    expect(res.statusCode).toBe(404);
  });
});

/** POST /api/console/media/standby: a console user's standby Janus token (a warm session, no room). */
describe.each(dialects())('console standby Janus token (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect, { config: { mediaStandby: true } });
  });
  afterAll(async () => t.close());

  const standby = (headers: Record<string, string>) => t.app.inject({ method: 'POST', url: '/api/console/media/standby', headers });

  it('when a console user asks, then it gets a token for itself as an agent in no room, valid as long as a call may stay open', async () => {
    for (const [email, password, username] of [
      [DEMO.agentEmail, DEMO.agentPassword, 'agent-18'],
      [DEMO.adminEmail, DEMO.adminPassword, 'admin-18'],
    ] as const) {
      const res = await standby({ cookie: await login(t.app, email, password) });
      expect(res.statusCode, res.body).toBe(200);
      const { data } = res.json<{ data: { token: string; expires_in: number } }>();
      expect(data.expires_in).toBe(t.app.services.config.openCallHours * 3600);
      expect(t.app.services.janusTokens.verify(data.token)).toEqual({
        expiry: Math.floor(t.clock.now / 1000) + data.expires_in,
        room: null,
        participant: { role: 'agent', username },
      });
    }
  });

  it("when there is no session, a forged one or a guest's bearer token, then 401 and no token", async () => {
    const g = await registerGuest(t.app);
    const refused: Array<Record<string, string>> = [{}, { cookie: 'lobby_session=forged' }, bearer(g.access_token)];
    for (const headers of refused) {
      const res = await standby(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.body).not.toContain('janus.plugin.videoroom');
    }
  });
});

describe.each(dialects())('console standby Janus token, deployment default (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect);
  });
  afterAll(async () => t.close());

  it('when the deployment keeps no standby sessions (LOBBY_MEDIA_STANDBY unset), then an agent is told off and gets no token', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/console/media/standby',
      headers: { cookie: await login(t.app, DEMO.agentEmail, DEMO.agentPassword) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { standby: 'off' } });
  });
});
