/**
 * Issue 15 defect 9: a call held and resumed continues under a new call id; the reports count the
 * conversation once, and "Latest calls" (GET /api/console/calls) lists it once too, with the talk time of
 * the whole chain, its parts, and the note written on its last part. SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallSummary } from '@lobby/contracts';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { answeredCall, bearer, login, registerGuest, resumeAfterHold } from '../../../helpers/fixtures.ts';

describe.each(dialects())('latest calls: one row per hold chain (%s)', (dialect) => {
  let t: TestContext;
  let admin: string;
  let agent: string;
  beforeAll(async () => {
    t = await createTestContext(dialect);
    admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
  });
  afterAll(async () => t.close());

  it('when a call was answered, held, resumed and ended, then it is listed once with the chain\u2019s talk time and its last note', async () => {
    const guest = await registerGuest(t.app);
    const stamp = async (callId: string, flag: string) => {
      const res = await t.app.inject({ method: 'PUT', url: '/api/call-report/update-timestamp', headers: bearer(guest.access_token), payload: { call_id: callId, [flag]: true } });
      expect(res.statusCode, res.body).toBe(200);
    };
    const first = await answeredCall(t.app, guest); // answered at T
    t.clock.now += 10_000;
    const resumed = await resumeAfterHold(t.app, guest, first.callId); // held part: T → T+10 s
    await stamp(resumed, 'call_answered_timestamp');
    t.clock.now += 5000;
    await stamp(resumed, 'call_ended_timestamp'); // resumed part: 5 s
    const note = await t.app.inject({ method: 'PUT', url: `/api/console/calls/${resumed}/note`, headers: { cookie: agent }, payload: { note: 'Sent the offer' } });
    expect(note.statusCode, note.body).toBe(200);

    const res = await t.app.inject({ method: 'GET', url: '/api/console/calls?limit=50', headers: { cookie: admin } });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json<{ data: CallSummary[] }>().data.filter((c) => c.guestUsername === guest.username);

    expect(rows.map((r) => r.callId)).toEqual([first.callId]);
    expect(rows[0]).toMatchObject({ answered: true, parts: 2, talkSeconds: 15 });
    expect(rows[0]?.note?.text).toBe('Sent the offer');
  });
});
