import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { addAssignment, addCompany, bearer, registerGuest } from '../../../helpers/fixtures.ts';
import type { CallOpenedEvent } from '../../../../src/services/events.ts';
import { createReportStatus } from '../../../../src/services/reportStatus.ts';

const add = (t: TestContext, token: string | null, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/call-report/add', headers: token ? bearer(token) : {}, payload });

describe.each(dialects())('POST /api/call-report/add (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect);
  });
  afterAll(async () => t.close());

  it('when a guest adds its own call, then 201 {id, status ok}, the report is stored and callOpened is published', async () => {
    const g = await registerGuest(t.app);
    const support = g.guestRooms[1];
    const events: CallOpenedEvent[] = [];
    const off = t.events.subscribe('callOpened', (e) => events.push(e));
    const callId = `${g.username}--abc_DEF-1`;

    const res = await add(t, g.access_token, {
      call_id: callId,
      company: 18,
      source: 'site',
      // (appointment_reference must name a real appointment now: test/routes/api/appointment)
      assignment_id: support?.assignmentId,
    });
    off();

    expect(res.statusCode).toBe(201);
    const { data } = res.json<{ data: { id: number; status: string } }>();
    expect(data.status).toBe('ok');
    const row = await t.db.kysely.selectFrom('call_reports').selectAll().where('id', '=', data.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      call_id: callId,
      company_id: 18,
      guest_username: g.username,
      assignment_id: support?.assignmentId,
      source: 'site',
      appointment_reference: null,
      status: 'ok',
      call_initiated_at: t.clock.now,
      room_jid: support?.room,
    });
    expect(events).toEqual([
      {
        companyId: 18,
        assignmentId: support?.assignmentId,
        assignmentName: 'Support',
        room: support?.room,
        guestUsername: g.username,
        callId,
        reportId: data.id,
        openedAt: t.clock.now,
      },
    ]);
  });

  it('when no assignment is named, then the first assignment of the company is used', async () => {
    const g = await registerGuest(t.app);
    const res = await add(t, g.access_token, { call_id: `${g.username}--x`, company: 18, source: 'site' });
    const row = await t.db.kysely
      .selectFrom('call_reports')
      .select('assignment_id')
      .where('id', '=', res.json<{ data: { id: number } }>().data.id)
      .executeTakeFirstOrThrow();
    expect(row.assignment_id).toBe(g.guestRooms[0]?.assignmentId);
  });

  it('when the same call_id is added twice, then 409 names call_id', async () => {
    const g = await registerGuest(t.app);
    const body = { call_id: `${g.username}--dup`, company: 18, source: 'site' };
    expect((await add(t, g.access_token, body)).statusCode).toBe(201);
    const again = await add(t, g.access_token, body);
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toContain('call_id');
  });

  it('when there is no token or a forged one, then 401', async () => {
    const g = await registerGuest(t.app);
    const body = { call_id: `${g.username}--n`, company: 18, source: 'site' };
    expect((await add(t, null, body)).statusCode).toBe(401);
    expect((await add(t, `${g.access_token}x`, body)).statusCode).toBe(401);
  });

  it("when a guest reports a call id of another guest, then 403 names call_id", async () => {
    const me = await registerGuest(t.app);
    const other = await registerGuest(t.app);
    const res = await add(t, me.access_token, { call_id: `${other.username}--steal`, company: 18, source: 'site' });
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toContain('call_id');
  });

  it('when the company is not the token company, then 403 names company', async () => {
    const other = await addCompany(t.db, { name: 'Other' });
    const g = await registerGuest(t.app);
    const res = await add(t, g.access_token, { call_id: `${g.username}--c`, company: other, source: 'site' });
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toContain('company');
  });

  it("when the assignment belongs to another company, then 400 names assignment_id", async () => {
    const other = await addCompany(t.db, { name: 'Other2' });
    const foreign = await addAssignment(t.db, other, 'Foreign');
    const g = await registerGuest(t.app);
    const res = await add(t, g.access_token, { call_id: `${g.username}--f`, company: 18, source: 'site', assignment_id: foreign });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain('assignment_id');
  });

  it('when the body is malformed, then 400 names the field', async () => {
    const g = await registerGuest(t.app);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ call_id: `${g.username}--${'x'.repeat(65)}`, company: 18, source: 'site' }, 'call_id'],
      [{ call_id: `${g.username}--a b`, company: 18, source: 'site' }, 'call_id'],
      [{ call_id: `${g.username}--ok`, company: 18, source: 'app' }, 'source'],
      [{ call_id: `${g.username}--ok`, source: 'site' }, 'company'],
    ];
    for (const [payload, field] of cases) {
      const res = await add(t, g.access_token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json<{ message: string }>().message).toContain(field);
    }
  });
});

describe('POST /api/call-report/add with a status check', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext('sqlite', { deps: { reportStatus: createReportStatus([() => Promise.resolve('outOfQuota')]) } });
  });
  afterAll(async () => t.close());

  it('when a check answers outOfQuota, then the report says so and no callOpened is published', async () => {
    const g = await registerGuest(t.app);
    const events: CallOpenedEvent[] = [];
    const off = t.events.subscribe('callOpened', (e) => events.push(e));
    const res = await add(t, g.access_token, { call_id: `${g.username}--q`, company: 18, source: 'site' });
    off();
    expect(res.statusCode).toBe(201);
    expect(res.json<{ data: { status: string } }>().data.status).toBe('outOfQuota');
    expect(events).toEqual([]);
  });
});
