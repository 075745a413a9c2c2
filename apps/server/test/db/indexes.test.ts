import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCallsToCheck } from '../../src/services/vanishedGuests.ts';
import { dialects, freshDb } from '../helpers/context.ts';
import type { TestDb } from '../helpers/context.ts';

/**
 * The vanished-guest sweep runs every 3 s over the open calls. Before migration 0008 its query read every
 * report and, per open call, every report again (the not-exists on previous_call_id): bench/api's server
 * stalled for seconds once it held ten thousand calls. Each database must now plan it on the indexes.
 */
describe.each(dialects())('the plan of the open-call sweep (%s)', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshDb(dialect);
  });
  afterAll(async () => t.drop());

  it('when the sweep asks for the open calls, then the database reads the open-call and previous-call indexes, not the table', async () => {
    const query = openCallsToCheck(t.db.kysely, { from: 0, to: Date.now() }).compile();
    let plan: string;
    if (dialect === 'sqlite') {
      const explained = await t.db.kysely.executeQuery<{ detail: string }>({ ...query, sql: `explain query plan ${query.sql}` });
      plan = explained.rows.map((r) => r.detail).join('\n');
    } else {
      plan = await t.db.kysely.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx); // an empty table: make the planner show what it can use
        const explained = await trx.executeQuery<{ 'QUERY PLAN': string }>({ ...query, sql: `explain ${query.sql}` });
        return explained.rows.map((r) => r['QUERY PLAN']).join('\n');
      });
    }
    expect(plan).toContain('call_reports_open');
    expect(plan).toContain('call_reports_previous');
    expect(plan).not.toMatch(/SCAN (r|next)\b(?! USING)/);
  });
});
