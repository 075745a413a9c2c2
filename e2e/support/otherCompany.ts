/**
 * A second, activated company on the test stack (the demo seed has one), for the journeys that need a
 * guest of another company. Written straight into the stack's database: no API creates companies.
 */
import path from 'node:path';

export const OTHER_COMPANY_ID = 9001;

export async function ensureOtherCompany(): Promise<number> {
  const url = process.env.DATABASE_URL ?? '';
  const values = [OTHER_COMPANY_ID, 'Other Co (e2e)', 'other.invalid', 1, '{}', Date.now()];
  const insert =
    'insert into companies (id, name, host, activated, settings, created_at) values (?, ?, ?, ?, ?, ?) on conflict (id) do nothing';
  if (url.startsWith('postgres')) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      let i = 0;
      await client.query(insert.replace(/\?/g, () => `$${++i}`), values);
    } finally {
      await client.end();
    }
    return OTHER_COMPANY_ID;
  }
  const { default: Database } = await import('better-sqlite3');
  const file = url.startsWith('sqlite:')
    ? url.slice('sqlite:'.length)
    : path.join(process.env.LOBBY_DATA_DIR ?? 'data', 'lobby.sqlite');
  const db = new Database(file, { fileMustExist: true });
  try {
    db.prepare(insert).run(...values);
  } finally {
    db.close();
  }
  return OTHER_COMPANY_ID;
}
