/**
 * Access to the stack's database, to check what a journey recorded (read) or to add what no API makes
 * (write, e.g. a second company). SQLite by default (the file of LOBBY_DATA_DIR), PostgreSQL when
 * DATABASE_URL is a postgres URL. Statements use `?` placeholders on both.
 */
import path from 'node:path';
import { expect } from '@playwright/test';

async function run<T>(sql: string, params: unknown[], write: boolean): Promise<T[]> {
  const url = process.env.DATABASE_URL ?? '';
  if (url.startsWith('postgres')) {
    const { default: pg } = await import('pg');
    // int8 columns (epoch milliseconds) as numbers, as the server reads them (apps/server/src/db/database.ts)
    const types = {
      getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
        oid === 20 ? (v: string) => Number(v) : (pg.types.getTypeParser(oid, format) as unknown)) as typeof pg.types.getTypeParser,
    };
    const client = new pg.Client({ connectionString: url, types });
    await client.connect();
    try {
      let i = 0;
      const text = sql.replace(/\?/g, () => `$${++i}`);
      return (await client.query(text, params)).rows as T[];
    } finally {
      await client.end();
    }
  }
  const { default: Database } = await import('better-sqlite3');
  const file = url.startsWith('sqlite:')
    ? url.slice('sqlite:'.length)
    : path.join(process.env.LOBBY_DATA_DIR ?? 'data', 'lobby.sqlite');
  const db = new Database(file, { readonly: !write, fileMustExist: true });
  try {
    const statement = db.prepare(sql);
    if (write) {
      statement.run(...params);
      return [];
    }
    return statement.all(...params) as T[];
  } finally {
    db.close();
  }
}

export function queryRows<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  return run<T>(sql, params, false);
}

export async function execute(sql: string, params: unknown[] = []): Promise<void> {
  await run(sql, params, true);
}

/** Waits until the call's report has its end time (the server stamps it when either side ends the call). */
export async function expectReportEnded(callId: string): Promise<void> {
  await expect
    .poll(
      async () =>
        (
          await queryRows<{ call_ended_at: number | null }>(
            'select call_ended_at from call_reports where call_id = ?',
            [callId],
          )
        )[0]?.call_ended_at ?? 0,
      {
        message: `the report of ${callId} has its end time`,
      },
    )
    .toBeGreaterThan(0);
}
