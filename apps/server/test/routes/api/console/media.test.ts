import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { createFakeMediaRooms } from '../../../helpers/fakes.ts';
import type { FakeMediaRooms } from '../../../helpers/fakes.ts';
import { addCompany, addUser, login, openCall, registerGuest } from '../../../helpers/fixtures.ts';

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
