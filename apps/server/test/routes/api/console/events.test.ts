import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { addAssignment, addCompany, addUser, login, openCall, registerGuest } from '../../../helpers/fixtures.ts';
import { connect } from '../../../helpers/sse.ts';


describe.each(dialects())('GET /api/console/events (%s)', (dialect) => {
  let t: TestContext;
  let port: number;
  beforeAll(async () => {
    t = await createTestContext(dialect);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => t.close());

  it('when a guest of its company opens a call, then the agent receives callOpened; a call of another company never arrives', async () => {
    const other = await addCompany(t.db, { name: 'Other' });
    const otherAssignment = await addAssignment(t.db, other, 'Desk');
    await addUser(t.db, { companyId: other, password: 'x-password', assignmentIds: [otherAssignment] });
    const stranger = await registerGuest(t.app, { companyId: other });
    const mine = await registerGuest(t.app);
    const cookie = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    const sse = await connect(port, cookie);
    expect(sse.status).toBe(200);
    expect(sse.contentType).toContain('text/event-stream');

    await openCall(t.app, stranger);
    const call = await openCall(t.app, mine, { assignment_id: mine.guestRooms[1]?.assignmentId });
    await sse.waitFor(1);
    await new Promise((r) => setTimeout(r, 50));
    sse.close();

    // (the demo company uses round robin: callRouting events follow, tested in routing.test.ts)
    expect(sse.events.filter((e) => e.event === 'callOpened')).toEqual([
      {
        event: 'callOpened',
        data: {
          room: mine.guestRooms[1]?.room,
          assignmentId: mine.guestRooms[1]?.assignmentId,
          assignmentName: 'Support',
          guestUsername: mine.username,
          callId: call.callId,
          reportId: call.reportId,
          openedAt: new Date(t.clock.now).toISOString(),
        },
      },
    ]);
  });

  it('when an agent of the other company listens, then it receives only its own company calls', async () => {
    const other = await addCompany(t.db, { name: 'Other B' });
    const desk = await addAssignment(t.db, other, 'Desk');
    const agent = await addUser(t.db, { companyId: other, password: 'b-password', assignmentIds: [desk] });
    const theirGuest = await registerGuest(t.app, { companyId: other });
    const demoGuest = await registerGuest(t.app);
    const sse = await connect(port, await login(t.app, agent.email, agent.password));

    await openCall(t.app, demoGuest);
    const theirs = await openCall(t.app, theirGuest);
    await sse.waitFor(1);
    await new Promise((r) => setTimeout(r, 50));
    sse.close();

    expect(sse.events.map((e) => (e.data as { callId: string }).callId)).toEqual([theirs.callId]);
  });

  it('when there is no session cookie, then 401 and no stream', async () => {
    const sse = await connect(port);
    sse.close();
    expect(sse.status).toBe(401);
  });
});
