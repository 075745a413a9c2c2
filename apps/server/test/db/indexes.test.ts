import { sql, type CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCallsToCheck } from '../../src/services/vanishedGuests.ts';
import { roomsProvisionedBeforeQuery } from '../../src/repositories/guests.ts';
import { chainAnsweredQuery, chainQuery, openFromAddressQuery, openOfGuestQuery } from '../../src/repositories/callReports.ts';
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

  /** The database's plan of a query (PostgreSQL told not to scan: an empty table would make it prefer that). */
  async function planOf(query: CompiledQuery): Promise<string> {
    if (dialect === 'sqlite') {
      const explained = await t.db.kysely.executeQuery<{ detail: string }>({ ...query, sql: `explain query plan ${query.sql}` });
      return explained.rows.map((r) => r.detail).join('\n');
    }
    return t.db.kysely.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const explained = await trx.executeQuery<{ 'QUERY PLAN': string }>({ ...query, sql: `explain ${query.sql}` });
      return explained.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
  }

  it('when the guest-room janitor asks for the oldest rooms, then the database reads them in order from the index, not by scanning and sorting', async () => {
    const plan = await planOf(roomsProvisionedBeforeQuery(t.db.kysely, Date.now(), 500).compile());
    expect(plan).toContain('guest_rooms_created');
    // SQLite reads them in order (no temporary b-tree); PostgreSQL's plan of an empty table may still sort
    // the few rows the index found, which is its cost model's choice, not a scan of the table
    if (dialect === 'sqlite') expect(plan).not.toContain('TEMP B-TREE');
    else expect(plan).not.toMatch(/Seq Scan/);
  });

  it('when the sweep asks for the open calls, then the database reads the open-call and previous-call indexes, not the table', async () => {
    const plan = await planOf(openCallsToCheck(t.db.kysely, { from: 0, to: Date.now() }).compile());
    expect(plan).toContain('call_reports_open');
    expect(plan).toContain('call_reports_previous');
    expect(plan).not.toMatch(/SCAN (r|next)\b(?! USING)/);
  });

  it('when a rating asks whether its call was answered, or a recording for its chain of calls, then the database finds them by the call ids, not by reading every report of the company', async () => {
    for (const query of [chainAnsweredQuery(t.db.kysely, 18, 'g_x--1'), chainQuery(t.db.kysely, 18, 'g_x--1')]) {
      const plan = await planOf(query.compile());
      expect(plan).toContain('call_reports_origin');
      expect(plan).not.toContain('call_reports_company_created');
      if (dialect === 'postgres') expect(plan).not.toMatch(/Seq Scan/);
    }
  });

  it("when a new call looks for the guest's open calls, then the database finds them by the guest, not by reading the company's calls of the last hours", async () => {
    const plan = await planOf(openOfGuestQuery(t.db.kysely, 18, 'g_x', Date.now() - 3_600_000).compile());
    // SQLite by the guest's index; PostgreSQL, on an empty table, may as well read a partial index of the
    // open calls only (its cost model's choice): either way not the company's history
    expect(plan).toMatch(dialect === 'sqlite' ? /call_reports_guest/ : /call_reports_guest|call_reports_open/);
    expect(plan).not.toContain('call_reports_company_created');
    if (dialect === 'postgres') expect(plan).not.toMatch(/Seq Scan/);
  });

  it("when a new call counts its address's open calls, then the database reads the open calls of that address, not the company's calls of the last hours", async () => {
    const plan = await planOf(openFromAddressQuery(t.db.kysely, 18, 'a1', Date.now() - 3_600_000, 'g_x').compile());
    expect(plan).toContain('call_reports_open_from');
    expect(plan).not.toContain('call_reports_company_created');
    if (dialect === 'postgres') expect(plan).not.toMatch(/Seq Scan/);
  });

  it('when the schema is migrated, then the origin index is partial: a new call (no origin) takes no entry in it, only resumed calls do', async () => {
    const definition =
      dialect === 'sqlite'
        ? (await sql<{ sql: string }>`select sql from sqlite_master where name = 'call_reports_origin'`.execute(t.db.kysely)).rows[0]?.sql
        : (await sql<{ indexdef: string }>`select indexdef from pg_indexes where indexname = 'call_reports_origin' and schemaname = current_schema()`.execute(t.db.kysely)).rows[0]?.indexdef;
    expect(definition).toMatch(/where\s+\(?"?origin_call_id"?\s+is\s+not\s+null/i);
  });
});
