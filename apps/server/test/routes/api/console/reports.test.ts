import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { createFakeMediaRooms } from '../../../helpers/fakes.ts';
import { addUser, bearer, login, openCall, registerGuest } from '../../../helpers/fixtures.ts';

interface Reports {
  from: string;
  to: string;
  totals: { calls: number; answered: number; abandoned: number; avgWaitSeconds: number; avgTalkSeconds: number };
  days: Array<{ day: string; calls: number; answered: number; abandoned: number }>;
}

describe.each(dialects())('GET /api/console/reports (+ .csv) (%s)', (dialect) => {
  let t: TestContext;
  let admin: string;
  let agent: string;
  let supervisor: string;
  let today: string;

  beforeAll(async () => {
    // a Janus stand-in: the agent's media grant is what makes a call answered for its rating
    t = await createTestContext(dialect, { deps: { mediaRooms: createFakeMediaRooms() } });
    t.clock.now = Date.parse('2026-03-10T10:00:00Z');
    today = '2026-03-10';
    admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    const s = await addUser(t.db, { companyId: DEMO.companyId, role: 'supervisor', password: 'supervisor-password' });
    supervisor = await login(t.app, s.email, s.password);

    // Two answered calls (wait 10 s and 20 s, talk 60 s and 120 s), one abandoned, one still waiting.
    // The server stamps its own clock when a flag is sent.
    const stamp = async (token: string, callId: string, flag: string) => {
      const res = await t.app.inject({ method: 'PUT', url: '/api/call-report/update-timestamp', headers: bearer(token), payload: { call_id: callId, [flag]: true } });
      if (res.statusCode >= 300) throw new Error(`stamp failed ${res.statusCode} ${res.body}`);
    };
    const start = t.clock.now;
    const rate = async (token: string, username: string, report: number, score: number) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/rating-form/submissions',
        headers: bearer(token),
        payload: { guestUsername: username, report, form: null, answers: { score } },
      });
      if (res.statusCode !== 201) throw new Error(`rating failed ${res.statusCode} ${res.body}`);
    };
    for (const [wait, talk, score] of [[10, 60, 5], [20, 120, 2]] as const) {
      t.clock.now = start;
      const g = await registerGuest(t.app, { companyId: DEMO.companyId });
      const c = await openCall(t.app, g);
      await stamp(g.access_token, c.callId, 'call_initiated_timestamp');
      t.clock.now += wait * 1000;
      // the agent answers (its media grant, which the rating needs), and the guest reports the moment
      const answered = await t.app.inject({ method: 'POST', url: `/api/console/calls/${c.callId}/media`, headers: { cookie: agent } });
      if (answered.statusCode !== 200) throw new Error(`answer failed ${answered.statusCode} ${answered.body}`);
      await stamp(g.access_token, c.callId, 'call_answered_timestamp');
      t.clock.now += talk * 1000;
      await stamp(g.access_token, c.callId, 'call_ended_timestamp');
      await rate(g.access_token, g.username, c.reportId, score);
      if (score === 2) {
        // Put on hold and resumed under a new call id: the same call, not a second one.
        const resumed = `${g.username}--resumed1`;
        const hold = await t.app.inject({
          method: 'POST',
          url: '/api/call-report/hold-call',
          headers: bearer(g.access_token),
          payload: { origin_call_id: c.callId, current_call_id: c.callId, new_call_id: resumed },
        });
        if (hold.statusCode !== 201) throw new Error(`hold failed ${hold.statusCode} ${hold.body}`);
        await stamp(g.access_token, resumed, 'call_answered_timestamp');
      }
    }
    t.clock.now = start;
    const gone = await registerGuest(t.app, { companyId: DEMO.companyId });
    const goneCall = await openCall(t.app, gone);
    await stamp(gone.access_token, goneCall.callId, 'call_initiated_timestamp');
    t.clock.now += 30_000;
    await stamp(gone.access_token, goneCall.callId, 'guest_exit_timestamp');
    const waiting = await registerGuest(t.app, { companyId: DEMO.companyId });
    await openCall(t.app, waiting);
  });
  afterAll(async () => t.close());

  it('when a supervisor asks for today, then calls, answered, abandoned, wait, talk and ratings are counted, a resumed call once', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/console/reports?from=${today}&to=${today}`, headers: { cookie: supervisor } });
    expect(res.statusCode).toBe(200);
    const r = res.json<{ data: Reports }>().data;
    expect(r.totals).toEqual({ calls: 4, answered: 2, abandoned: 1, booked: 0, avgWaitSeconds: 15, avgTalkSeconds: 90, ratings: 2, avgRating: 3.5 });
    expect(r.days).toEqual([{ day: today, calls: 4, answered: 2, abandoned: 1, booked: 0, avgWaitSeconds: 15, avgTalkSeconds: 90, ratings: 2, avgRating: 3.5 }]);
  });

  it('when no range is given, then the last 14 days answer, one entry per day', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/console/reports', headers: { cookie: admin } });
    const r = res.json<{ data: Reports }>().data;
    expect(r.days).toHaveLength(14);
    expect(r.to).toBe(today);
    expect(r.days.at(-1)?.calls).toBe(4);
    expect(r.days.slice(0, -1).every((d) => d.calls === 0)).toBe(true);
  });

  it('when the CSV is asked for, then a download with one row per day and a total row answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/console/reports.csv?from=2026-03-09&to=${today}`, headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('attachment');
    expect(res.body.split('\r\n')).toEqual([
      'day,calls,answered,abandoned,booked,avg_wait_seconds,avg_talk_seconds,ratings,avg_rating',
      '2026-03-09,0,0,0,0,0,0,0,0',
      '2026-03-10,4,2,1,0,15,90,2,3.5',
      'total,4,2,1,0,15,90,2,3.5',
      '',
    ]);
  });

  it('when an agent asks, or the range is reversed, then 403 / 400 naming the field', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/console/reports', headers: { cookie: agent } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/console/reports.csv', headers: { cookie: agent } })).statusCode).toBe(403);
    const bad = await t.app.inject({ method: 'GET', url: `/api/console/reports?from=2026-04-01&to=${today}`, headers: { cookie: admin } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('from');
  });
});
