import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/db/database.ts';

/**
 * The server's SQLite connection leaves checkpoints to a worker thread (db/walCheckpointer.ts): its own
 * commits no longer copy the WAL into the database file, the worker does, within about a second.
 */
describe('WAL checkpoints from a worker thread (sqlite)', () => {
  it('when the server writes more than SQLite would checkpoint by itself, then the worker copies it into the database file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lobby-wal-'));
    const file = path.join(dir, 'lobby.sqlite');
    const db = openDb(`sqlite:${file}`, { backgroundCheckpoint: true });
    try {
      await sql`create table blobs (id integer primary key, data blob not null)`.execute(db.kysely);
      const sizeBefore = fs.statSync(file).size;
      // ≈ 8 MB, twice SQLite's default threshold (1,000 pages): a commit of the server's connection would have
      // checkpointed it itself; with its threshold raised only the worker can
      const chunk = Buffer.alloc(64 * 1024, 7);
      for (let i = 0; i < 128; i++) await sql`insert into blobs (data) values (${chunk})`.execute(db.kysely);
      expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(4 * 1024 * 1024);
      await expect.poll(() => fs.statSync(file).size, { timeout: 5000, interval: 100 }).toBeGreaterThan(sizeBefore + 4 * 1024 * 1024);
    } finally {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
