import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { addCompany, addUser, bearer, createForm, login, openCall, registerGuest } from '../../../helpers/fixtures.ts';
import type { RegisteredGuest } from '../../../helpers/fixtures.ts';
import { adminDb } from '../../../../src/repositories/adminTables.ts';
import { MAX_UPCOMING_BOOKINGS_PER_ADDRESS } from '../../../../src/routes/api/booking/index.ts';

/**
 * docs/guest-journey.md "Booking a time instead", docs/api.md "Booking": a guest books a free time of the
 * company's agents (working hours from its schedule, minus their appointments); the booked agent sees it.
 */
describe.each(dialects())('booking a time (%s)', (dialect) => {
  let t: TestContext;
  let companyId: number;
  let admin: string;
  let agents: Array<{ id: number; email: string; password: string }>;
  // Monday 2030-01-07 08:00 UTC; the company works Mondays 09:00–10:00 in Dubai (05:00–06:00 UTC): closed now
  const NOW = Date.parse('2030-01-07T04:00:00Z');
  const FIRST = '2030-01-07T05:00:00.000Z';
  const SECOND = '2030-01-07T05:30:00.000Z';
  const settings = (patch: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: '/api/admin/company', headers: { cookie: admin }, payload: patch });
  const slots = async (g: RegisteredGuest) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/booking/slots', headers: bearer(g.access_token) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: { timezone: string; slotMinutes: number; slots: Array<{ startsAt: string }> } }>().data;
  };
  const book = (g: RegisteredGuest, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/booking', headers: bearer(g.access_token), payload });

  beforeAll(async () => {
    t = await createTestContext(dialect);
    t.clock.now = NOW;
    companyId = await addCompany(t.db, {
      name: 'Booking Co',
      settings: {
        appointmentBooking: true,
        schedule: { timezone: 'Asia/Dubai', weekly: [{ day: 1, from: '09:00', to: '10:00' }] },
      },
    });
    const adminUser = await addUser(t.db, { companyId, password: 'booking-admin-pw', role: 'admin' });
    admin = await login(t.app, adminUser.email, adminUser.password);
    agents = [await addUser(t.db, { companyId, password: 'booking-agent-1' }), await addUser(t.db, { companyId, password: 'booking-agent-2' })];
    // a supervisor takes no bookings; another company's agents neither
    await addUser(t.db, { companyId, password: 'booking-super', role: 'supervisor' });
    const other = await addCompany(t.db, { name: 'Other Co' });
    await addUser(t.db, { companyId: other, password: 'other-agent' });
  });
  afterAll(async () => t.close());

  it('when a closed company offers booking, then the free times are its working hours after now, in 30-minute slots', async () => {
    const g = await registerGuest(t.app, { companyId });
    // this Monday's hour and the next Monday's (14 days ahead)
    expect(await slots(g)).toEqual({
      timezone: 'Asia/Dubai',
      slotMinutes: 30,
      slots: [FIRST, SECOND, '2030-01-14T05:00:00.000Z', '2030-01-14T05:30:00.000Z'].map((startsAt) => ({ startsAt })),
    });
  });

  it('when a guest books, then the agent sees it among its appointments with the guest’s name, contact and call type, and the guest gets the link', async () => {
    const g = await registerGuest(t.app, { companyId });
    const res = await book(g, { startsAt: FIRST, callType: 'voice', name: '  Sara Ali ' });
    expect(res.statusCode, res.body).toBe(201);
    const booking = res.json<{ data: { reference: string; link: string; startsAt: string; durationMinutes: number; callType: string } }>().data;
    expect(booking).toEqual({ reference: booking.reference, link: `/appointment/${booking.reference}`, startsAt: FIRST, durationMinutes: 30, callType: 'voice' });

    const found: Array<{ reference: string; agentId: number; note: string; callType: string | null }> = [];
    for (const agent of agents) {
      const cookie = await login(t.app, agent.email, agent.password);
      const list = await t.app.inject({ method: 'GET', url: '/api/admin/appointments', headers: { cookie } });
      found.push(...list.json<{ data: { appointments: typeof found } }>().data.appointments);
    }
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ reference: booking.reference, note: 'Sara Ali', callType: 'voice' });
    expect(agents.map((a) => a.id)).toContain(found[0]?.agentId);
    // the guest's link reaches that agent
    const looked = await t.app.inject({ method: 'GET', url: `/api/appointment/${booking.reference}`, headers: bearer(g.access_token) });
    expect(looked.statusCode).toBe(200);
  });

  it('when every agent of a time is booked, then the time leaves the free list and booking it again answers 409 naming startsAt', async () => {
    const g = await registerGuest(t.app, { companyId });
    // one agent took FIRST above; the second takes it now
    expect((await book(g, { startsAt: FIRST, callType: 'video', name: 'Omar' })).statusCode).toBe(201);
    expect((await slots(g)).slots.filter((s) => s.startsAt.startsWith('2030-01-07'))).toEqual([{ startsAt: SECOND }]);
    const again = await book(g, { startsAt: FIRST, callType: 'video', name: 'Late' });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toMatch(/^startsAt: /);
    const booked = await t.db.kysely.selectFrom('users').select('id').where('company_id', '=', companyId).where('role', '=', 'agent').execute();
    expect(booked.map((r) => r.id).sort()).toEqual(agents.map((a) => a.id).sort());
  });

  it('when the input is wrong, then a 400 names the field: a time outside the working hours, an empty name, a bad call type', async () => {
    const g = await registerGuest(t.app, { companyId });
    const outside = await book(g, { startsAt: '2030-01-07T07:00:00.000Z', callType: 'video', name: 'Nour' });
    expect(outside.statusCode).toBe(400);
    expect(outside.json<{ message: string }>().message).toMatch(/^startsAt: /);
    const blank = await book(g, { startsAt: SECOND, callType: 'video', name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json<{ message: string }>().message).toMatch(/^name: /);
    const type = await book(g, { startsAt: SECOND, callType: 'fax', name: 'Nour' });
    expect(type.statusCode).toBe(400);
    expect(type.json<{ message: string }>().message).toMatch(/callType/);
  });

  it('when the welcome form has contact fields, then the booking asks for them: a required one missing or malformed is a 400 naming it', async () => {
    await createForm(t.app, admin, {
      kind: 'welcome',
      title: 'Before we start',
      fields: [
        { key: 'email', type: 'email', label: 'Email', required: true, order: 0 },
        { key: 'phone', type: 'tel', label: 'Phone', required: false, order: 1 },
      ],
    });
    const g = await registerGuest(t.app, { companyId });
    const missing = await book(g, { startsAt: SECOND, callType: 'video', name: 'Nour' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ message: string }>().message).toBe('contact/email: required');
    const bad = await book(g, { startsAt: SECOND, callType: 'video', name: 'Nour', contact: { email: 'nour@example.com', phone: 'call me' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toMatch(/^contact\/phone: /);
    const ok = await book(g, { startsAt: SECOND, callType: 'video', name: 'Nour', contact: { email: 'nour@example.com', phone: '+971 50 123 4567' } });
    expect(ok.statusCode, ok.body).toBe(201);
    const row = await adminDb(t.db.kysely).selectFrom('appointments').select('note').where('reference', '=', ok.json<{ data: { reference: string } }>().data.reference).executeTakeFirstOrThrow();
    expect(row.note).toBe('Nour · nour@example.com · +971 50 123 4567');
  });

  it('when a waiting guest books instead, then its call is reported as booked, not abandoned', async () => {
    // open for calls now (Monday 08:00–09:00 Dubai = 04:00–05:00 UTC), bookable from 09:00 Dubai
    expect((await settings({ schedule: { timezone: 'Asia/Dubai', weekly: [{ day: 1, from: '08:00', to: '11:00' }] } })).statusCode).toBe(200);
    const g = await registerGuest(t.app, { companyId });
    const { callId } = await openCall(t.app, g);
    const res = await book(g, { startsAt: '2030-01-07T06:00:00.000Z', callType: 'video', name: 'Waiting guest', contact: { email: 'w@example.com' }, call_id: callId });
    expect(res.statusCode, res.body).toBe(201);
    // the guest app then leaves the queue as any guest does
    await t.app.inject({ method: 'PUT', url: '/api/call-report/update-timestamp', headers: bearer(g.access_token), payload: { call_id: callId, call_ended_timestamp: true, guest_exit_timestamp: true } });
    const day = '2030-01-07';
    const reports = await t.app.inject({ method: 'GET', url: `/api/console/reports?from=${day}&to=${day}`, headers: { cookie: admin } });
    expect(reports.statusCode, reports.body).toBe(200);
    expect(reports.json<{ data: { totals: { calls: number; abandoned: number; booked: number } } }>().data.totals).toMatchObject({ calls: 1, abandoned: 0, booked: 1 });
  });

  it('when the call named is another guest’s, then 403 naming call_id and nothing is booked', async () => {
    const owner = await registerGuest(t.app, { companyId });
    const { callId } = await openCall(t.app, owner);
    const g = await registerGuest(t.app, { companyId });
    const res = await book(g, { startsAt: '2030-01-07T06:30:00.000Z', callType: 'video', name: 'X', contact: { email: 'x@example.com' }, call_id: callId });
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toMatch(/^call_id: /);
    expect((await slots(g)).slots.map((s) => s.startsAt)).toContain('2030-01-07T06:30:00.000Z');
  });

  it('when the company does not offer booking, then 403 naming appointmentBooking', async () => {
    expect((await settings({ appointmentBooking: false })).statusCode).toBe(200);
    const g = await registerGuest(t.app, { companyId });
    const res = await t.app.inject({ method: 'GET', url: '/api/booking/slots', headers: bearer(g.access_token) });
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toMatch(/^appointmentBooking: /);
    expect((await settings({ appointmentBooking: true })).statusCode).toBe(200);
  });
});

describe('booking a time: the rate limit', () => {
  it('when one guest asks more often than a browser may register in a minute, then 429; another guest is not held back', async () => {
    const t = await createTestContext('sqlite', { config: { registerBrowserRateLimit: 2 } });
    try {
      const companyId = await addCompany(t.db, { name: 'Limited Co', settings: { appointmentBooking: true } });
      const [one, two] = [await registerGuest(t.app, { companyId }), await registerGuest(t.app, { companyId })];
      const ask = async (g: RegisteredGuest) => (await t.app.inject({ method: 'GET', url: '/api/booking/slots', headers: bearer(g.access_token) })).statusCode;
      expect([await ask(one), await ask(one), await ask(one)]).toEqual([200, 200, 429]);
      expect(await ask(two)).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('booking a time: one per guest, a few per address', () => {
  it('when a guest books a second time before the first, then 409 naming guest; when one address has booked the most times, then 429 naming address; another address still books', async () => {
    const t = await createTestContext('sqlite');
    try {
      t.clock.now = Date.parse('2030-01-07T04:00:00Z');
      const weekly = [1, 2, 3, 4, 5].map((day) => ({ day, from: '09:00', to: '17:00' }));
      const companyId = await addCompany(t.db, { name: 'Open Co', settings: { appointmentBooking: true, schedule: { timezone: 'UTC', weekly } } });
      for (const password of ['open-agent-1', 'open-agent-2']) await addUser(t.db, { companyId, password });
      const freeTimes = async (g: RegisteredGuest) =>
        (await t.app.inject({ method: 'GET', url: '/api/booking/slots', headers: bearer(g.access_token) })).json<{ data: { slots: Array<{ startsAt: string }> } }>().data.slots;
      const bookFrom = (g: RegisteredGuest, startsAt: string, remoteAddress = '127.0.0.1') =>
        t.app.inject({ method: 'POST', url: '/api/booking', headers: bearer(g.access_token), remoteAddress, payload: { startsAt, callType: 'voice', name: 'Sam' } });

      const first = await registerGuest(t.app, { companyId });
      const times = await freeTimes(first);
      expect((await bookFrom(first, times[0]!.startsAt)).statusCode).toBe(201);
      const second = await bookFrom(first, times[1]!.startsAt);
      expect(second.statusCode).toBe(409);
      expect(second.json<{ message: string }>().message).toMatch(/^guest: /);

      for (let i = 1; i < MAX_UPCOMING_BOOKINGS_PER_ADDRESS; i++) {
        const g = await registerGuest(t.app, { companyId });
        expect((await bookFrom(g, times[i]!.startsAt)).statusCode, `booking ${i + 1}`).toBe(201);
      }
      const script = await registerGuest(t.app, { companyId });
      const refused = await bookFrom(script, times[MAX_UPCOMING_BOOKINGS_PER_ADDRESS]!.startsAt);
      expect(refused.statusCode).toBe(429);
      expect(refused.json<{ message: string }>().message).toMatch(/^address: /);
      // a guest elsewhere is not held back by that address
      expect((await bookFrom(script, times[MAX_UPCOMING_BOOKINGS_PER_ADDRESS]!.startsAt, '198.51.100.7')).statusCode).toBe(201);
    } finally {
      await t.close();
    }
  });
});
