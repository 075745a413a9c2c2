import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { bearer, openCall, registerGuest } from '../../../helpers/fixtures.ts';
import type { RegisteredGuest } from '../../../helpers/fixtures.ts';
import { CALL_BUG_KEEP_DAYS, createCallBugRetentionJob } from '../../../../src/services/callBugRetention.ts';
import { CALL_BUG_PER_CALL, CALL_BUG_PER_GUEST_HOUR } from '../../../../src/routes/api/call-bug/index.ts';

describe.each(dialects())('POST /api/call-bug/by-guest (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect);
  });
  afterAll(async () => t.close());

  it('when a guest reports a failed stage, then 201 {id} and the log, state and client info are stored as text', async () => {
    const g = await registerGuest(t.app);
    const { callId } = await openCall(t.app, g);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/call-bug/by-guest',
      headers: bearer(g.access_token),
      payload: { guest_log: ['createOffer failed'], guest_state: { stage: 'createOffer' }, guest_client_info: 'Chrome 140', call_id: callId, guest_id: 'abc' },
    });
    expect(res.statusCode).toBe(201);
    const row = await t.db.kysely.selectFrom('call_bugs').selectAll().where('id', '=', res.json<{ data: { id: number } }>().data.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      company_id: 18,
      call_id: callId,
      guest_username: g.username,
      guest_id: 'abc',
      guest_log: '["createOffer failed"]',
      guest_state: '{"stage":"createOffer"}',
      guest_client_info: 'Chrome 140',
    });
  });

  it('when a required part is missing, then 400 names it', async () => {
    const g = await registerGuest(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/call-bug/by-guest',
      headers: bearer(g.access_token),
      payload: { guest_log: 'x', guest_client_info: 'y', call_id: `${g.username}--z` },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain('guest_state');
  });

  const report = (g: RegisteredGuest, callId: string, parts: Record<string, unknown> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/call-bug/by-guest',
      headers: bearer(g.access_token),
      payload: { guest_log: ['createOffer failed'], guest_state: { stage: 'createOffer' }, guest_client_info: 'Chrome 140', call_id: callId, ...parts },
    });
  const storedOf = async (guestUsername: string) =>
    Number((await t.db.kysely.selectFrom('call_bugs').select((eb) => eb.fn.countAll<number | string>().as('n')).where('guest_username', '=', guestUsername).executeTakeFirstOrThrow()).n);

  it('when the state or the client info is larger than a guest app sends, then 400 names the part and nothing is stored', async () => {
    const g = await registerGuest(t.app);
    const { callId } = await openCall(t.app, g);
    const state = await report(g, callId, { guest_state: 'x'.repeat(20_001) });
    expect(state.statusCode).toBe(400);
    expect(state.json<{ message: string }>().message).toBe('guest_state: at most 20000 characters');
    const info = await report(g, callId, { guest_client_info: 'y'.repeat(2_001) });
    expect(info.statusCode).toBe(400);
    expect(info.json<{ message: string }>().message).toBe('guest_client_info: at most 2000 characters');
    const log = await report(g, callId, { guest_log: 'z'.repeat(200_001) });
    expect(log.statusCode).toBe(400);
    expect(log.json<{ message: string }>().message).toBe('guest_log: at most 200000 characters');
    expect(await storedOf(g.username)).toBe(0);
  });

  it('when a guest keeps reporting one call, then the reports past the per-call limit are 429 naming call_id and not stored', async () => {
    const g = await registerGuest(t.app);
    const { callId } = await openCall(t.app, g);
    for (let i = 0; i < CALL_BUG_PER_CALL; i++) expect((await report(g, callId)).statusCode).toBe(201);
    const more = await report(g, callId);
    expect(more.statusCode).toBe(429);
    expect(more.json<{ message: string }>().message).toBe(`call_id: at most ${CALL_BUG_PER_CALL} reports for one call`);
    // past the hourly window: a call's limit is for its whole life
    t.clock.now += 3_660_000;
    expect((await report(g, callId)).statusCode).toBe(429);
    expect(await storedOf(g.username)).toBe(CALL_BUG_PER_CALL);
  });

  it('when a guest reports many calls in an hour, then the reports past the hourly limit are 429 until the hour has passed', async () => {
    const g = await registerGuest(t.app);
    for (let i = 0; i < CALL_BUG_PER_GUEST_HOUR; i++) expect((await report(g, `${g.username}--hour${i}`)).statusCode).toBe(201);
    const more = await report(g, `${g.username}--hour-more`);
    expect(more.statusCode).toBe(429);
    expect(more.headers['retry-after']).toBe('3600');
    expect(more.json<{ message: string }>().message).toMatch(/^access_token: at most \d+ reports an hour/);
    expect(await storedOf(g.username)).toBe(CALL_BUG_PER_GUEST_HOUR);
    t.clock.now += 3_600_001;
    expect((await report(g, `${g.username}--next-hour`)).statusCode).toBe(201);
  });

  it('when a guest sends many reports at once, then no more than the per-call limit are stored', async () => {
    const g = await registerGuest(t.app);
    const { callId } = await openCall(t.app, g);
    const answers = await Promise.all(Array.from({ length: 3 * CALL_BUG_PER_CALL }, () => report(g, callId)));
    expect(answers.filter((a) => a.statusCode === 201).length).toBe(CALL_BUG_PER_CALL);
    expect(answers.filter((a) => a.statusCode === 429).length).toBe(2 * CALL_BUG_PER_CALL);
    expect(await storedOf(g.username)).toBe(CALL_BUG_PER_CALL);
  });

  it('when reports are older than the company keeps recordings, or than the support limit, then the retention job deletes them', async () => {
    const job = createCallBugRetentionJob(t.app.services, { now: () => t.clock.now });
    const g = await registerGuest(t.app);
    expect((await report(g, `${g.username}--old`)).statusCode).toBe(201);
    const settingsOf = async () => (await t.db.kysely.selectFrom('companies').select('settings').where('id', '=', 18).executeTakeFirstOrThrow()).settings;
    const original = await settingsOf();
    // recordings kept until deleted by hand: the report stays CALL_BUG_KEEP_DAYS
    t.clock.now += (CALL_BUG_KEEP_DAYS - 1) * 86_400_000;
    await job.runOnce();
    expect(await storedOf(g.username)).toBe(1);
    t.clock.now += 2 * 86_400_000;
    await job.runOnce();
    expect(await storedOf(g.username)).toBe(0);

    // the company keeps recordings 2 days: reports go after 2 days too
    const settings = { ...(JSON.parse(String(original)) as Record<string, unknown>), recordingRetentionDays: 2 };
    await t.db.kysely.updateTable('companies').set({ settings: JSON.stringify(settings) }).where('id', '=', 18).execute();
    const later = await registerGuest(t.app);
    expect((await report(later, `${later.username}--short`)).statusCode).toBe(201);
    t.clock.now += 86_400_000;
    await job.runOnce();
    expect(await storedOf(later.username)).toBe(1);
    t.clock.now += 86_400_001;
    await job.runOnce();
    expect(await storedOf(later.username)).toBe(0);
    await t.db.kysely.updateTable('companies').set({ settings: original }).where('id', '=', 18).execute();
  });
});
