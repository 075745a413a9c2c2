import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { addAssignment, addCompany, addUser, login, openCall, registerGuest } from '../../../helpers/fixtures.ts';

interface SseClient {
  status: number;
  contentType: string;
  events: Array<{ event: string; data: unknown }>;
  raw: string;
  close(): void;
  waitFor(n: number, ms?: number): Promise<void>;
}

function connect(port: number, cookie?: string): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/console/events', headers: cookie ? { cookie } : {} }, (res) => {
      const client: SseClient = {
        status: res.statusCode ?? 0,
        contentType: String(res.headers['content-type']),
        events: [],
        raw: '',
        close: () => req.destroy(),
        waitFor: (n, ms = 2000) =>
          new Promise((ok, ko) => {
            const started = Date.now();
            const tick = () => {
              if (client.events.length >= n) return ok();
              if (Date.now() - started > ms) return ko(new Error(`only ${client.events.length} events`));
              setTimeout(tick, 10);
            };
            tick();
          }),
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        client.raw += chunk;
        const blocks = client.raw.split('\n\n');
        client.raw = blocks.pop() ?? '';
        for (const block of blocks) {
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) client.events.push({ event, data: JSON.parse(data) });
        }
      });
      resolve(client);
    });
    req.on('error', reject);
  });
}

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

    // (the demo company uses round robin: callRouting events follow, tested in round-robin.test.ts)
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
