import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { addUser, login, registerGuest } from '../../../helpers/fixtures.ts';

/** Agents added to an assignment after guests registered get into those guests' existing rooms. */
describe.each(dialects())('guest room membership follows the assignment (%s)', (dialect) => {
  let t: TestContext;
  let admin: string;
  beforeAll(async () => {
    t = await createTestContext(dialect);
    admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
  });
  afterAll(async () => t.close());

  const xmppOf = async (id: number) =>
    (await t.db.kysely.selectFrom('users').select('xmpp_username').where('id', '=', id).executeTakeFirstOrThrow()).xmpp_username;
  const affiliations = (jid: string) =>
    t.ejabberd.calls
      .filter((c) => c.command === 'setAffiliation' && (c.args as { jid: string }).jid === jid)
      .map((c) => c.args as { room: string; affiliation: string });

  it('when an admin adds an agent to an assignment, then it becomes admin of every existing guest room of it; removed, it loses them', async () => {
    const g1 = await registerGuest(t.app);
    const g2 = await registerGuest(t.app);
    const sales = g1.guestRooms.find((r) => r.name === 'Sales');
    const support = g1.guestRooms.find((r) => r.name === 'Support');
    const late = await addUser(t.db, { companyId: DEMO.companyId, password: 'late-agent-pw' });
    const jid = `${await xmppOf(late.id)}@${t.config.xmppDomain}`;
    const current = await t.db.kysely.selectFrom('user_assignments').select('user_id').where('assignment_id', '=', sales?.assignmentId ?? 0).execute();

    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/assignments/${sales?.assignmentId}`,
      headers: { cookie: admin },
      payload: { name: 'Sales', type: 'queue', agentIds: [...current.map((c) => c.user_id), late.id] },
    });
    expect(res.statusCode).toBe(200);
    const granted = affiliations(jid);
    const salesRooms = [g1, g2].map((g) => g.guestRooms.find((r) => r.name === 'Sales')?.room.split('@')[0]);
    expect(granted.filter((a) => a.affiliation === 'admin').map((a) => a.room).sort()).toEqual(expect.arrayContaining(salesRooms));
    expect(granted.map((a) => a.room)).not.toContain(support?.room.split('@')[0]);

    const removed = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/assignments/${sales?.assignmentId}`,
      headers: { cookie: admin },
      payload: { name: 'Sales', type: 'queue', agentIds: current.map((c) => c.user_id) },
    });
    expect(removed.statusCode).toBe(200);
    expect(affiliations(jid).filter((a) => a.affiliation === 'none').map((a) => a.room)).toEqual(expect.arrayContaining(salesRooms));
  });

  it("when an admin gives a user an assignment (new or changed), then it becomes admin of that assignment's existing guest rooms", async () => {
    const g = await registerGuest(t.app);
    const support = g.guestRooms.find((r) => r.name === 'Support');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: { cookie: admin },
      payload: { email: `late-${Date.now()}@demo.lobby`, name: 'Late Agent', role: 'agent', password: 'late-agent-password', assignmentIds: [support?.assignmentId] },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json<{ data: { id: number } }>().data.id;
    const jid = `${await xmppOf(id)}@${t.config.xmppDomain}`;
    expect(affiliations(jid)).toContainEqual({ room: support?.room.split('@')[0], jid, affiliation: 'admin' });

    const sales = g.guestRooms.find((r) => r.name === 'Sales');
    const changed = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/users/${id}`,
      headers: { cookie: admin },
      payload: { assignmentIds: [sales?.assignmentId] },
    });
    expect(changed.statusCode).toBe(200);
    expect(affiliations(jid)).toContainEqual({ room: sales?.room.split('@')[0], jid, affiliation: 'admin' });
    expect(affiliations(jid)).toContainEqual({ room: support?.room.split('@')[0], jid, affiliation: 'none' });
  });
});
