import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJanusNodesRepository } from '../../../../src/repositories/janusNodes.ts';
import { createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { createFakeMediaRooms } from '../../../helpers/fakes.ts';
import type { FakeMediaRooms } from '../../../helpers/fakes.ts';
import { bearer, openCall, registerGuest } from '../../../helpers/fixtures.ts';
import { deadJanusNode, nodeOfRoom, roomOn } from '../../../helpers/deadJanusNodes.ts';

/** POST /api/call-report/media: a guest's way into its own call's media room, and no other. */
describe.each(dialects())('guest media grant (%s)', (dialect) => {
  let t: TestContext;
  let rooms: FakeMediaRooms;
  beforeAll(async () => {
    rooms = createFakeMediaRooms();
    t = await createTestContext(dialect, { deps: { mediaRooms: rooms } });
  });
  afterAll(async () => t.close());

  const media = (token: string, payload: object) => t.app.inject({ method: 'POST', url: '/api/call-report/media', headers: bearer(token), payload });

  it('when a guest asks for its open call, then it gets the grant the media rooms give for that call', async () => {
    const g = await registerGuest(t.app);
    const call = await openCall(t.app, g);
    const res = await media(g.access_token, { call_id: call.callId, webview: true });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: { token: string } }>().data.token).toBe(`token-${call.callId}`);
    expect(rooms.grants.at(-1)).toEqual({ side: 'guest', callId: call.callId, companyId: g.companyId, username: g.username, webview: true });
  });

  it("when a guest asks for another guest's call, then 403 and no grant", async () => {
    const owner = await registerGuest(t.app);
    const call = await openCall(t.app, owner);
    const other = await registerGuest(t.app);
    const before = rooms.grants.length;
    const res = await media(other.access_token, { call_id: call.callId });
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toMatch(/^call_id:/);
    expect(rooms.grants.length).toBe(before);
  });

  it('when the call has ended, then 409', async () => {
    const g = await registerGuest(t.app);
    const call = await openCall(t.app, g);
    const ended = await t.app.inject({ method: 'PUT', url: '/api/call-report/update-timestamp', headers: bearer(g.access_token), payload: { call_id: call.callId, call_ended_timestamp: true } });
    expect(ended.statusCode).toBe(200);
    expect((await media(g.access_token, { call_id: call.callId })).statusCode).toBe(409);
  });

  it("when a guest whose media session was lost asks with rejoin, then the media rooms are asked to re-create; once the server closed the room, 409 naming why", async () => {
    const g = await registerGuest(t.app);
    const call = await openCall(t.app, g);
    const res = await media(g.access_token, { call_id: call.callId, rejoin: true });
    expect(res.statusCode).toBe(200);
    expect(rooms.grants.at(-1)).toMatchObject({ side: 'guest', callId: call.callId, rejoin: true });
    rooms.closed.add(call.callId);
    const closed = await media(g.access_token, { call_id: call.callId, rejoin: true });
    expect(closed.statusCode).toBe(409);
    expect(closed.json<{ message: string }>().message).toMatch(/^call_id: this call's media room was closed/);
  });

  it('when a guest whose claims went unanswered asks to move, then the media rooms are asked with move (a room still served is refused: janusNodes.test.ts)', async () => {
    const g = await registerGuest(t.app);
    const call = await openCall(t.app, g);
    const res = await media(g.access_token, { call_id: call.callId, rejoin: true, move: true });
    expect(res.statusCode).toBe(200);
    expect(rooms.grants.at(-1)).toMatchObject({ side: 'guest', callId: call.callId, rejoin: true, move: true });
  });

  it('when rejoin is not a boolean, then 400 naming the field', async () => {
    const g = await registerGuest(t.app);
    const call = await openCall(t.app, g);
    const res = await media(g.access_token, { call_id: call.callId, rejoin: 'yes' });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain('rejoin');
  });
});

/** docs/operations.md "Several Janus nodes": no serving node is the media service's outage, not the guest's mistake. */
describe.each(dialects())('guest media grant with every Janus node down or drained (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    const node = (name: string, port: number) => ({
      name,
      wsUrl: `ws://127.0.0.1:${port}`,
      httpUrl: `http://127.0.0.1:${port}/janus`,
      adminUrl: `http://127.0.0.1:${port}/admin`,
    });
    t = await createTestContext(dialect, {
      config: { janusNodes: [node('janus-1', 9), node('janus-2', 9)] },
      deps: { janusProbe: (n) => Promise.resolve({ healthy: n.name === 'janus-2', sessions: 0 }) },
    });
  });
  afterAll(async () => t.close());

  it('when one node is down and the other drained, then the grant is 503 naming the Janus nodes, and no room row is left', async () => {
    await t.app.services.janusNodes.checkHealth();
    await createJanusNodesRepository(t.db.kysely).setDraining('janus-2', true);
    const g = await registerGuest(t.app);
    const call = await openCall(t.app, g);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/call-report/media',
      headers: bearer(g.access_token),
      payload: { call_id: call.callId },
    });
    expect(res.statusCode).toBe(503);
    expect(res.json<{ message: string }>().message).toBe(
      'janus: no Janus node is serving (every node is down or draining)',
    );
    expect(await t.app.services.mediaRooms.secretOf(call.callId)).toBeNull();
  });
});

/**
 * docs/protocol.md "Media session lost": the call's only Janus node is down, so its room cannot be made
 * again anywhere; the guest is told the media service is out (503), not that the server broke (500).
 */
describe.each(dialects())("guest rejoin with the call's only Janus node down (%s)", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect, { config: { janusNodes: [deadJanusNode('janus-1')] } });
  });
  afterAll(async () => t.close());

  const rejoin = (token: string, callId: string) =>
    t.app.inject({ method: 'POST', url: '/api/call-report/media', headers: bearer(token), payload: { call_id: callId, rejoin: true } });

  it("when the guest rejoins and no node answers to make its room again, then 503 naming Janus and the room, its row left on its node; another guest is still 403, and a room the server closed still 409", async () => {
    const g = await registerGuest(t.app);
    const call = await openCall(t.app, g);
    await roomOn(t.db, 'janus-1', { callId: call.callId, companyId: g.companyId });

    const res = await rejoin(g.access_token, call.callId);

    expect(res.statusCode).toBe(503);
    expect(res.json<{ message: string }>().message).toBe(
      `janus: no Janus node answers to make the media room of ${call.callId} again (its node is down); ask again`,
    );
    expect(await nodeOfRoom(t.db, call.callId)).toBe('janus-1');
    const other = await registerGuest(t.app);
    expect((await rejoin(other.access_token, call.callId)).statusCode).toBe(403);
    const closed = await openCall(t.app, g);
    await roomOn(t.db, 'janus-1', { callId: closed.callId, companyId: g.companyId, destroyed: true });
    expect((await rejoin(g.access_token, closed.callId)).statusCode).toBe(409);
  });
});
