import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { addCompany, addUser, randomGuestId, registerGuest } from '../../../helpers/fixtures.ts';
import type { RoomSpec } from '../../../../src/services/ejabberd.ts';

describe.each(dialects())('POST /api/guest/register (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect);
  });
  afterAll(async () => t.close());

  it('when a new guestId registers with the default company, then 201 gives username, JIDs, rooms and tokens', async () => {
    const guestId = randomGuestId();

    const res = await t.app.inject({ method: 'POST', url: '/api/guest/register', payload: { guestId } });

    expect(res.statusCode).toBe(201);
    const { data } = res.json<{ data: Record<string, unknown> & { username: string; guestRooms: Array<{ assignmentId: number; name: string; room: string }> } }>();
    expect(data.username).toMatch(/^g[0-9a-f]{16}$/);
    expect(data.jabberusername).toBe(`${data.username}@guest.lobby.local`);
    expect(data.companyId).toBe(18);
    expect(data.guestRooms.map((r) => r.name)).toEqual(['Sales', 'Support']);
    for (const r of data.guestRooms) expect(r.room).toBe(`a${r.assignmentId}-${data.username}@conference.lobby.local`);
    expect(typeof data.access_token).toBe('string');
    expect(typeof data.credential).toBe('string');
    expect(data.expires_in).toBeGreaterThan(3600);
    const claims = JSON.parse(Buffer.from(String(data.credential).split('.')[1] ?? '', 'base64url').toString()) as { jid: string };
    expect(claims.jid).toBe(data.jabberusername);
  });

  it('when the same guestId registers again, then it gets the same username and the raw id is not stored', async () => {
    const guestId = randomGuestId();

    const first = await registerGuest(t.app, { guestId });
    const second = await registerGuest(t.app, { guestId });

    expect(second.username).toBe(first.username);
    const rows = await t.db.kysely.selectFrom('guests').selectAll().where('username', '=', first.username).execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(guestId);
    expect(rows[0]?.guest_id_hash).toBe(crypto.createHash('sha256').update(guestId).digest('hex'));
  });

  it('when a guest registers, then each room is created in ejabberd with the guest as member and the assignment agents as admins', async () => {
    const guest = await registerGuest(t.app);

    for (const r of guest.guestRooms) {
      const spec = t.ejabberd.rooms.get(r.room.split('@')[0] ?? '') as RoomSpec;
      expect(spec.title).toBe(r.name);
      expect(spec.members).toEqual([guest.jabberusername]);
      expect(spec.admins).toEqual(['agent-18@lobby.local']);
    }
  });

  it('when the guestId is not 32 lowercase hex characters, then 400 names guestId', async () => {
    for (const guestId of ['xyz', 'ABCDEF0123456789ABCDEF0123456789', '0123456789abcdef-0123456789abcdef', 42]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/guest/register', payload: { guestId } });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toContain('guestId');
    }
    const missing = await t.app.inject({ method: 'POST', url: '/api/guest/register', payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ message: string }>().message).toContain('guestId');
  });

  it('when the company is unknown, then 404 names companyId', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/guest/register', payload: { guestId: randomGuestId(), companyId: 999999 } });
    expect(res.statusCode).toBe(404);
    expect(res.json<{ message: string }>().message).toContain('companyId');
  });

  it('when the company is not activated, then 409 "company is not activated" and nothing is created', async () => {
    const companyId = await addCompany(t.db, { name: 'Sleeping', activated: false });
    const before = t.ejabberd.calls.length;

    const res = await t.app.inject({ method: 'POST', url: '/api/guest/register', payload: { guestId: randomGuestId(), companyId } });

    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toBe('company is not activated');
    expect(t.ejabberd.calls.length).toBe(before);
  });

  it('when the same guestId registers with two companies, then it gets two different usernames', async () => {
    const other = await addCompany(t.db, { name: 'Other' });
    const guestId = randomGuestId();
    const a = await registerGuest(t.app, { guestId });
    const b = await registerGuest(t.app, { guestId, companyId: other });
    expect(a.username).not.toBe(b.username);
    expect(b.companyId).toBe(other);
  });

  it('when no companyId is given, then the company whose host is the request host is used', async () => {
    const hosted = await addCompany(t.db, { name: 'Hosted', host: 'calls.example.com' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/guest/register',
      headers: { host: 'calls.example.com:8080' },
      payload: { guestId: randomGuestId() },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json<{ data: { companyId: number } }>().data.companyId).toBe(hosted);
  });

  it('when ejabberd is down, then 503 names ejabberd', async () => {
    t.ejabberd.up = false;
    try {
      const res = await t.app.inject({ method: 'POST', url: '/api/guest/register', payload: { guestId: randomGuestId() } });
      expect(res.statusCode).toBe(503);
      expect(res.json<{ message: string }>().message).toContain('ejabberd');
    } finally {
      t.ejabberd.up = true;
    }
  });

  it('when an agent is added to an assignment later, then the next registration makes it admin of the room', async () => {
    const guest = await registerGuest(t.app);
    const sales = guest.guestRooms[0]?.assignmentId ?? 0;
    await addUser(t.db, { companyId: 18, password: 'pw-pw-pw-pw', assignmentIds: [sales] });

    const again = await t.app.inject({ method: 'POST', url: '/api/guest/register', payload: { guestId: 'f'.repeat(32) } });
    expect(again.statusCode).toBe(201);
    const room = t.ejabberd.rooms.get(`a${sales}-${again.json<{ data: { username: string } }>().data.username}`);
    expect(room?.admins).toHaveLength(2);
  });
});

describe('POST /api/guest/register rate limit', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext('sqlite', { config: { registerRateLimit: 3, registerBrowserRateLimit: 2 } });
  });
  afterAll(async () => t.close());

  it('when one client IP registers more often than the limit, then it gets 429', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/guest/register', payload: { guestId: randomGuestId() } });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([201, 201, 201, 429]);
    const other = await t.app.inject({ method: 'POST', url: '/api/guest/register', remoteAddress: '10.0.0.9', payload: { guestId: randomGuestId() } });
    expect(other.statusCode).toBe(201);
  });

  it('when browsers already registered come back behind one address, then they do not use up its share of new browsers', async () => {
    const address = '10.0.0.20';
    const register = (guestId: string, remoteAddress = address) =>
      t.app.inject({ method: 'POST', url: '/api/guest/register', remoteAddress, payload: { guestId } });
    // three visitors behind one NAT register once (the address's limit for new browsers)
    const known = [randomGuestId(), randomGuestId(), randomGuestId()];
    for (const guestId of known) expect((await register(guestId)).statusCode).toBe(201);
    // each comes back (another page load): still served, on its own budget
    for (const guestId of known) expect((await register(guestId)).statusCode).toBe(201);
    // a new browser behind the same address is past the address's limit
    expect((await register(randomGuestId())).statusCode).toBe(429);
    // one browser flooding (page loads) is limited on its own (2 returns a minute here), wherever it comes from
    expect((await register(known[1]!, '10.0.0.21')).statusCode).toBe(201);
    expect((await register(known[1]!, '10.0.0.21')).statusCode).toBe(429);
  });
});
