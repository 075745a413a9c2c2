/**
 * The console's reports by service (talk, widget, all: docs/guest-journey.md) and the talk time of a call
 * resumed after hold (a chain of reports linked by POST /call-report/hold-call).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { bearer, login, openCall, registerGuest, type RegisteredGuest } from '../../../helpers/fixtures.ts';

interface Totals {
  calls: number;
  answered: number;
  abandoned: number;
  avgWaitSeconds: number;
  avgTalkSeconds: number;
}

describe.each(dialects())('GET /api/console/reports?service= and held calls (%s)', (dialect) => {
  let t: TestContext;
  let admin: string;
  const day = '2026-05-04';

  const stamp = async (g: RegisteredGuest, callId: string, flag: string) => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/call-report/update-timestamp', headers: bearer(g.access_token), payload: { call_id: callId, [flag]: true } });
    if (res.statusCode >= 300) throw new Error(`stamp failed ${res.statusCode} ${res.body}`);
  };
  const totals = async (query: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/console/reports?from=${day}&to=${day}${query}`, headers: { cookie: admin } });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json<{ data: { service: string; totals: Totals } }>().data;
    expect(data.service).toBe(new URLSearchParams(query).get('service') ?? 'all');
    return data.totals;
  };
  const csvTotal = async (query: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/console/reports.csv?from=${day}&to=${day}${query}`, headers: { cookie: admin } });
    expect(res.statusCode, res.body).toBe(200);
    return res.body.split('\r\n').find((l) => l.startsWith('total,'));
  };

  beforeAll(async () => {
    t = await createTestContext(dialect);
    admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    const start = Date.parse(`${day}T09:00:00Z`);

    // a widget call: waits 10 s, talks 30 s, then is put on hold; resumed after a 20 s hold, the agent is
    // back 5 s later and they talk 40 s more
    t.clock.now = start;
    const w = await registerGuest(t.app);
    const first = await openCall(t.app, w, { service_type: 'widget' });
    t.clock.now += 10_000;
    await stamp(w, first.callId, 'call_answered_timestamp');
    t.clock.now += 30_000 + 20_000;
    const resumed = `${w.username}--resumed`;
    const hold = await t.app.inject({
      method: 'POST',
      url: '/api/call-report/hold-call',
      headers: bearer(w.access_token),
      payload: { origin_call_id: first.callId, current_call_id: first.callId, new_call_id: resumed },
    });
    expect(hold.statusCode, hold.body).toBe(201);
    t.clock.now += 5_000;
    await stamp(w, resumed, 'call_answered_timestamp');
    t.clock.now += 40_000;
    await stamp(w, resumed, 'call_ended_timestamp');

    // a talk call (the full page): waits 20 s, talks 60 s
    t.clock.now = start;
    const p = await registerGuest(t.app);
    const page = await openCall(t.app, p, { service_type: 'talk' });
    t.clock.now += 20_000;
    await stamp(p, page.callId, 'call_answered_timestamp');
    t.clock.now += 60_000;
    await stamp(p, page.callId, 'call_ended_timestamp');

    // a call reported without a service type (an older client): counted as talk; abandoned
    t.clock.now = start;
    const o = await registerGuest(t.app);
    const old = await openCall(t.app, o);
    t.clock.now += 15_000;
    await stamp(o, old.callId, 'guest_exit_timestamp');
  });
  afterAll(async () => t.close());

  it('when a call was held and resumed, then its talk time counts the resumed part (the hold included, its start is not recorded) and it is one call', async () => {
    // 30 s before the hold + 20 s of hold (the held part ends when the resume began) + 40 s after
    expect(await totals('&service=widget')).toEqual({ calls: 1, answered: 1, abandoned: 0, booked: 0, avgWaitSeconds: 10, avgTalkSeconds: 90, ratings: 0, avgRating: 0 });
  });

  it('when the service is talk, then the full page calls and those without a service type answer', async () => {
    expect(await totals('&service=talk')).toEqual({ calls: 2, answered: 1, abandoned: 1, booked: 0, avgWaitSeconds: 20, avgTalkSeconds: 60, ratings: 0, avgRating: 0 });
  });

  it('when the service is all or not given, then both services are counted', async () => {
    const all = { calls: 3, answered: 2, abandoned: 1, booked: 0, avgWaitSeconds: 15, avgTalkSeconds: 75, ratings: 0, avgRating: 0 };
    expect(await totals('&service=all')).toEqual(all);
    expect(await totals('')).toEqual(all);
  });

  it('when the CSV is asked for one service, then its total row counts that service only', async () => {
    expect(await csvTotal('&service=widget')).toBe('total,1,1,0,0,10,90,0,0');
    expect(await csvTotal('&service=talk')).toBe('total,2,1,1,0,20,60,0,0');
  });

  it('when the latest calls are asked for one service, then only that service\u2019s calls answer (talk includes those without a type)', async () => {
    const calls = async (query: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/console/calls${query}`, headers: { cookie: admin } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ data: Array<{ callId: string }> }>().data.map((c) => c.callId);
    };
    const widget = await calls('?service=widget');
    const talk = await calls('?service=talk');
    expect(widget).toHaveLength(1); // the held call, once under its first call id
    expect(widget.every((id) => !talk.includes(id))).toBe(true);
    expect(talk).toHaveLength(2);
    expect((await calls('')).sort()).toEqual([...widget, ...talk].sort());
  });

  it('when the service is not talk, widget or all, then 400 naming the field', async () => {
    for (const url of ['/api/console/reports?service=phone', '/api/console/reports.csv?service=', '/api/console/recordings?service=WIDGET', '/api/console/calls?service=none']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie: admin } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json<{ message: string }>().message, url).toContain('service');
    }
  });
});
