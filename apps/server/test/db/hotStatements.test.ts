import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { hotQuery } from '../../src/db/hotStatements.ts';
import { seedDemo } from '../../src/db/seed.ts';
import {
  DuplicateCallId,
  createCallReportsRepository,
  type NewCallReport,
} from '../../src/repositories/callReports.ts';
import { DEMO, dialects, freshDb } from '../helpers/context.ts';
import type { TestDb } from '../helpers/context.ts';

/**
 * The report insert of every opened call is prepared once (db/hotStatements.ts); on SQLite the inserts of
 * one event-loop turn share a transaction. Each call must still answer as if it had been alone.
 */
describe.each(dialects())('the prepared report insert (%s)', (dialect) => {
  let t: TestDb;
  let seq = 0;
  beforeAll(async () => {
    t = await freshDb(dialect);
    await seedDemo(t.db, {
      companyId: DEMO.companyId,
      agentPassword: DEMO.agentPassword,
      adminPassword: DEMO.adminPassword,
    });
  });
  afterAll(async () => t.drop());

  const report = (over: Partial<NewCallReport> = {}): NewCallReport => ({
    callId: `g_hot--${++seq}`,
    companyId: DEMO.companyId,
    guestUsername: 'g_hot',
    assignmentId: null,
    roomJid: null,
    source: 'site',
    appointmentReference: null,
    serviceType: null,
    status: 'ok',
    now: 1_700_000_000_000 + seq,
    ...over,
  });
  const stored = (callId: string) =>
    t.db.kysely
      .selectFrom('call_reports')
      .select(['id', 'call_id', 'company_id'])
      .where('call_id', '=', callId)
      .executeTakeFirst();

  it('when many reports are added at once, one a duplicate and one of no such company, then those two fail alone and every other is stored with its own id', async () => {
    const repo = createCallReportsRepository(t.db.kysely, t.db);
    const first = report();
    await repo.add(first);
    const fresh = Array.from({ length: 8 }, () => report());
    const outcomes = await Promise.allSettled([
      ...fresh.map((r) => repo.add(r)),
      repo.add({ ...first, now: first.now + 1 }),
      repo.add(report({ companyId: 999_999 })), // the company's foreign key refuses it
    ]);
    const ids = outcomes.slice(0, 8).map((o) => (o.status === 'fulfilled' ? o.value : null));
    expect(new Set(ids).size).toBe(8);
    for (const [i, r] of fresh.entries()) expect((await stored(r.callId))?.id).toBe(ids[i]);
    expect(outcomes[8]).toMatchObject({ status: 'rejected', reason: expect.any(DuplicateCallId) as unknown });
    expect(outcomes[9]?.status).toBe('rejected');
    expect(outcomes[9]).not.toMatchObject({ reason: expect.any(DuplicateCallId) as unknown });
  });

  it("when writes of different statements arrive in one turn, one of them a duplicate, then it fails alone and the others' rows are written", async () => {
    const repo = createCallReportsRepository(t.db.kysely, t.db);
    const first = report();
    const id = await repo.add(first);
    const outcomes = await Promise.allSettled([
      repo.add({ ...first, now: first.now + 1 }),
      repo.setTimestamps(id, ['call_answered_at', 'call_ended_at'], 1_700_000_500_000),
      repo.markAgentAnswered(id, 1_700_000_400_000, 'agent@example'),
      repo.add(report()),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    const row = await t.db.kysely.selectFrom('call_reports').select(['call_answered_at', 'call_ended_at', 'agent_answered_at', 'agent']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ call_answered_at: 1_700_000_500_000, call_ended_at: 1_700_000_500_000, agent_answered_at: 1_700_000_400_000, agent: 'agent@example' });
  });

  it('when a Kysely query runs prepared (hotQuery), then an argument used twice fills both places, and one the query inlines is refused at start-up', async () => {
    const repo = createCallReportsRepository(t.db.kysely, t.db);
    const r = report();
    await repo.add(r);
    const byCallOrOrigin = hotQuery(
      t.db,
      'test_call_or_origin',
      (db, callId: string, companyId: number) =>
        db.selectFrom('call_reports').select('call_id').where((eb) => eb.or([eb('call_id', '=', callId), eb('origin_call_id', '=', callId)])).where('company_id', '=', companyId),
      2,
    );
    expect(await byCallOrOrigin.all(r.callId, DEMO.companyId)).toEqual([{ call_id: r.callId }]);
    expect(await byCallOrOrigin.all(r.callId, 999)).toEqual([]);
    expect(() => hotQuery(t.db, 'test_inlined', (db, callId: string) => db.selectFrom('call_reports').select('id').where('call_id', '=', sql.lit(callId)), 1)).toThrow(
      'argument 0 is no parameter',
    );
  });

  it('when a transaction of another request is open across awaits, then an added report waits for it and survives its rollback', async () => {
    const repo = createCallReportsRepository(t.db.kysely, t.db);
    const inside = report();
    const outside = report();
    let added: Promise<number> | null = null;
    await expect(
      t.db.kysely.transaction().execute(async (trx) => {
        await trx
          .insertInto('call_reports')
          .values({
            call_id: inside.callId,
            company_id: DEMO.companyId,
            guest_username: 'g_hot',
            source: 'site',
            status: 'ok',
            created_at: 1,
          })
          .execute();
        added = repo.add(outside);
        // the other request's insert gets its turns of the event loop while this transaction is open
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const id = await (added as unknown as Promise<number>);
    expect(await stored(inside.callId)).toBeUndefined();
    expect((await stored(outside.callId))?.id).toBe(id);
  });
});
