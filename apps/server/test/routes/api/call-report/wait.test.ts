import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { createFakeMediaRooms } from '../../../helpers/fakes.ts';
import { answeredCall, bearer, login, openCall, registerGuest } from '../../../helpers/fixtures.ts';
import type { RegisteredGuest } from '../../../helpers/fixtures.ts';

/**
 * docs/guest-journey.md "Place in the queue and estimate": GET /api/call-report/wait tells a waiting guest
 * its place among its pool's waiting calls and an estimate from the company's recent calls, as the
 * company allows; only for the guest's own call.
 */
describe.each(dialects())('GET /api/call-report/wait (%s)', (dialect) => {
  let t: TestContext;
  let admin: string;
  beforeAll(async () => {
    t = await createTestContext(dialect, { deps: { mediaRooms: createFakeMediaRooms() } });
    admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
  });
  afterAll(async () => t.close());

  type Place = {
    waiting: boolean;
    position: number | null;
    estimate: { kind: string; minutes?: number; atLeastMinutes?: number } | null;
  };
  const place = async (g: RegisteredGuest, callId: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/call-report/wait?call_id=${encodeURIComponent(callId)}`,
      headers: bearer(g.access_token),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: Place }>().data;
  };
  const end = async (g: RegisteredGuest, callId: string) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/call-report/update-timestamp',
      headers: bearer(g.access_token),
      payload: { call_id: callId, call_ended_timestamp: true, guest_exit_timestamp: true },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const settings = async (patch: Record<string, unknown>) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/company',
      headers: { cookie: admin },
      payload: patch,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  /** ends every open call, then lets three hours pass: each test starts from an empty queue and no history */
  const emptyQueue = async () => {
    await t.db.kysely
      .updateTable('call_reports')
      .set({ call_ended_at: t.clock.now })
      .where('call_ended_at', 'is', null)
      .execute();
    t.clock.now += 3 * 3600_000;
  };

  it('when three guests wait, then each sees its own place, which moves up when the first is answered and when the second leaves', async () => {
    await emptyQueue();
    const guests = [await registerGuest(t.app), await registerGuest(t.app), await registerGuest(t.app)];
    const calls: Array<{ callId: string }> = [];
    for (const g of guests) {
      calls.push(await openCall(t.app, g));
      t.clock.now += 1000;
    }
    expect(
      (await Promise.all(guests.map((g, i) => place(g, calls[i]!.callId)))).map((p) => p.position),
    ).toEqual([1, 2, 3]);

    // the first is answered by an agent: it is no longer waiting, the others move up
    const agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/call-report/media',
          headers: bearer(guests[0]!.access_token),
          payload: { call_id: calls[0]!.callId },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/console/calls/${calls[0]!.callId}/media`,
          headers: { cookie: agent },
        })
      ).statusCode,
    ).toBe(200);
    expect(await place(guests[0]!, calls[0]!.callId)).toEqual({
      waiting: false,
      position: null,
      estimate: null,
    });
    expect((await place(guests[1]!, calls[1]!.callId)).position).toBe(1);
    expect((await place(guests[2]!, calls[2]!.callId)).position).toBe(2);

    // the second leaves the queue: the third is next
    await end(guests[1]!, calls[1]!.callId);
    expect((await place(guests[2]!, calls[2]!.callId)).position).toBe(1);
  });

  it('when the pool has no history, then no estimate; after enough answered calls of about four minutes with a call in progress, an estimate in minutes', async () => {
    await emptyQueue();
    const first = await registerGuest(t.app);
    const firstCall = await openCall(t.app, first);
    expect((await place(first, firstCall.callId)).estimate).toBeNull();
    await end(first, firstCall.callId);

    // twelve calls answered after 20 s and ended four minutes later, each
    for (let i = 0; i < 12; i++) {
      const g = await registerGuest(t.app);
      const call = await answeredCall(t.app, g);
      t.clock.now += 4 * 60_000 + i * 5_000;
      await end(g, call.callId);
    }
    // one call in progress for a minute, two guests waiting before this one
    const busy = await registerGuest(t.app);
    await answeredCall(t.app, busy);
    t.clock.now += 60_000;
    for (let i = 0; i < 2; i++) await openCall(t.app, await registerGuest(t.app));
    const g = await registerGuest(t.app);
    const call = await openCall(t.app, g);
    const p = await place(g, call.callId);
    expect(p.position).toBe(3);
    // one agent busy for a minute of a ~4 min call, then two calls ahead: about 3 + 4 + 4 minutes
    expect(p.estimate?.kind).toMatch(/minutes|longWait/);
    const minutes = p.estimate?.minutes ?? p.estimate?.atLeastMinutes ?? 0;
    expect(minutes).toBeGreaterThanOrEqual(5);
    expect(minutes).toBeLessThanOrEqual(14);
  });

  it('when the company turns the place or the estimate off, then it is not told', async () => {
    await emptyQueue();
    const g = await registerGuest(t.app);
    const call = await openCall(t.app, g);
    await settings({ queuePosition: false });
    expect((await place(g, call.callId)).position).toBeNull();
    await settings({ queuePosition: true, waitEstimate: false });
    expect(await place(g, call.callId)).toEqual({ waiting: true, position: 1, estimate: null });
    await settings({ waitEstimate: true });
  });

  it("when a guest asks about another guest's call or leaves the call id out, then 403 or 400 naming call_id", async () => {
    const owner = await registerGuest(t.app);
    const call = await openCall(t.app, owner);
    const other = await registerGuest(t.app);
    const stranger = await t.app.inject({
      method: 'GET',
      url: `/api/call-report/wait?call_id=${call.callId}`,
      headers: bearer(other.access_token),
    });
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json<{ message: string }>().message).toMatch(/^call_id/);
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/call-report/wait',
      headers: bearer(owner.access_token),
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toMatch(/call_id/);
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `/api/call-report/wait?call_id=${call.callId}`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
