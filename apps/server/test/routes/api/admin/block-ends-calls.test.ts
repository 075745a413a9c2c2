import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { createFakeMediaRooms } from '../../../helpers/fakes.ts';
import type { FakeMediaRooms } from '../../../helpers/fakes.ts';
import { bearer, login, openCall, registerGuest } from '../../../helpers/fixtures.ts';

/**
 * docs/security.md "Open calls": blocking a guest ends the calls it has open at once — a block used to
 * refuse only its next call, while the open one kept its media (guest and agent) and its place in the
 * consoles' list.
 */
describe.each(dialects())('blocking a guest ends its open calls (%s)', (dialect) => {
  let t: TestContext;
  let rooms: FakeMediaRooms;
  let admin: string;
  let agent: string;
  beforeAll(async () => {
    rooms = createFakeMediaRooms();
    t = await createTestContext(dialect, { deps: { mediaRooms: rooms } });
    admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
  });
  afterAll(async () => t.close());

  const guestMedia = (token: string, callId: string) =>
    t.app.inject({ method: 'POST', url: '/api/call-report/media', headers: bearer(token), payload: { call_id: callId } });
  const agentMedia = (callId: string) => t.app.inject({ method: 'POST', url: `/api/console/calls/${callId}/media`, headers: { cookie: agent } });
  const listed = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/console/rooms', headers: { cookie: agent } })).json<{ data: { rooms: Array<{ callId: string }> } }>().data.rooms.map((r) => r.callId);

  it('when an admin blocks a guest in a call, then the call is ended, its media refused to guest and agent, gone from the consoles\' list, its Janus room destroyed and the guest put out of its room', async () => {
    const g = await registerGuest(t.app);
    const call = await openCall(t.app, g);
    expect((await guestMedia(g.access_token, call.callId)).statusCode).toBe(200);
    expect((await agentMedia(call.callId)).statusCode).toBe(200);
    expect(await listed()).toContain(call.callId);

    const block = await t.app.inject({ method: 'POST', url: '/api/admin/blocked-guests', headers: { cookie: admin }, payload: { guestUsername: g.username, reason: 'abuse' } });
    expect(block.statusCode).toBe(201);

    const report = await t.db.kysely.selectFrom('call_reports').selectAll().where('call_id', '=', call.callId).executeTakeFirstOrThrow();
    expect(report.call_ended_at).toBe(t.clock.now);
    expect(report.guest_exit_at).toBe(t.clock.now);
    const guestAgain = await guestMedia(g.access_token, call.callId);
    expect(guestAgain.statusCode).toBe(409);
    expect(guestAgain.json<{ message: string }>().message).toBe('call_id: this call has ended');
    expect((await agentMedia(call.callId)).statusCode).toBe(409);
    expect(await listed()).not.toContain(call.callId);
    expect(rooms.ended).toContain(call.callId);
    const roomName = (report.room_jid ?? '').split('@')[0];
    expect(t.ejabberd.calls).toContainEqual({ command: 'setAffiliation', args: { room: roomName, jid: `${g.username}@${t.config.xmppGuestDomain}`, affiliation: 'outcast' } });

    // and it cannot open another
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/call-report/add',
      headers: bearer(g.access_token),
      payload: { call_id: `${g.username}--after-block`, company: g.companyId, source: 'site' },
    });
    expect(again.json<{ data: { status: string } }>().data.status).toBe('blocked');

    // unblocked: back into its rooms
    const id = block.json<{ data: { id: number } }>().data.id;
    expect((await t.app.inject({ method: 'DELETE', url: `/api/admin/blocked-guests/${id}`, headers: { cookie: admin } })).statusCode).toBe(200);
    expect(t.ejabberd.calls).toContainEqual({ command: 'setAffiliation', args: { room: roomName, jid: `${g.username}@${t.config.xmppGuestDomain}`, affiliation: 'member' } });
  });

  it('when an admin blocks a guest without an open call, then the block stands and nothing else of the guest changes', async () => {
    const g = await registerGuest(t.app);
    const before = t.ejabberd.calls.length;
    const block = await t.app.inject({ method: 'POST', url: '/api/admin/blocked-guests', headers: { cookie: admin }, payload: { guestUsername: g.username, reason: 'spam' } });
    expect(block.statusCode).toBe(201);
    expect(t.ejabberd.calls.length).toBe(before);
  });
});
