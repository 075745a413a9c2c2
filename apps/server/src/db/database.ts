import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type { Database } from './schema.ts';
import { SAFETY_AUTOCHECKPOINT_PAGES, startWalCheckpointer, type WalCheckpointer } from './walCheckpointer.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL: the schema in use when not the default (tests run one per file, side by side) */
  pgSchema?: string;
  /**
   * The driver under Kysely, for the few statements that run on every request and are prepared once
   * (db/hotStatements.ts): better-sqlite3's database, or PostgreSQL's pool.
   */
  raw:
    | { dialect: 'sqlite'; database: SQLite.Database }
    | {
        dialect: 'postgres';
        pool: pg.Pool;
        /** a connection of its own, outside the pool, on the same database and schema (services/jobLocks.ts) */
        dedicatedClient(applicationName: string): pg.Client;
      };
  /** true when a trivial query answers */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface OpenDbOptions {
  /** PostgreSQL only: the schema to use (created if missing); tests use a fresh one per run */
  pgSchema?: string;
  /**
   * SQLite file only: checkpoint the WAL from a worker thread instead of inside a request's commit
   * (db/walCheckpointer.ts). The server's own connection sets it; tools and tests need not.
   */
  backgroundCheckpoint?: boolean;
  /** where the background checkpointer reports a failure */
  onCheckpointError?: (message: string) => void;
}

/** Open the database named by DATABASE_URL: `sqlite:<file>` (or `sqlite::memory:`) or `postgres://…`. */
export function openDb(url: string, options: OpenDbOptions = {}): Db {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const database = new SQLite(file);
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = ON');
    database.pragma('busy_timeout = 5000');
    let checkpointer: WalCheckpointer | null = null;
    if (options.backgroundCheckpoint && file !== ':memory:') {
      database.pragma(`wal_autocheckpoint = ${SAFETY_AUTOCHECKPOINT_PAGES}`);
      checkpointer = startWalCheckpointer(path.resolve(file), { onError: options.onCheckpointError });
    }
    const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
    return {
      kysely,
      dialect: 'sqlite',
      raw: { dialect: 'sqlite', database },
      ping: () => ping(kysely),
      close: async () => {
        await checkpointer?.stop();
        await kysely.destroy();
      },
    };
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    const schema = options.pgSchema;
    if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error('invalid pgSchema');
    const connection = {
      connectionString: url,
      connectionTimeoutMillis: 5000,
      // int8 (bigint) columns hold epoch milliseconds and counts: numbers, not strings.
      types: int8AsNumber,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    };
    const pool = new pg.Pool({ ...connection, max: 10 });
    // An idle connection that PostgreSQL ends (a restart, a failover) emits 'error' on the pool: unheard,
    // it would end the process. The pool drops that connection and opens a new one for the next query
    // (docs/operations.md "Scaling").
    pool.on('error', (err) => console.error(`postgres: idle connection lost (${err.message}); the next query reconnects`));
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      kysely,
      dialect: 'postgres',
      raw: { dialect: 'postgres', pool, dedicatedClient: (applicationName) => new pg.Client({ ...connection, application_name: applicationName }) },
      ...(schema ? { pgSchema: schema } : {}),
      ping: () => ping(kysely),
      close: () => kysely.destroy(),
    };
  }
  throw new Error('DATABASE_URL must start with sqlite: or postgres://');
}

/**
 * Kysely prepares every query anew; with better-sqlite3 that compile is a large share of a small query's cost
 * (measured in bench/api). Queries are built from a fixed set of shapes, so their SQL texts repeat: keep the
 * prepared statements. Safe because better-sqlite3 runs a statement to completion synchronously (Kysely's
 * streaming `iterate` is not used here). The cap only guards against an unexpected variety of texts.
 */
function withStatementCache(database: SQLite.Database) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(sqlText: string) {
      let stmt = cache.get(sqlText);
      if (!stmt) {
        stmt = database.prepare(sqlText);
        if (cache.size >= 1000) cache.clear();
        cache.set(sqlText, stmt);
      }
      return stmt;
    },
    close() {
      cache.clear();
      database.close();
    },
  };
}

const int8AsNumber = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
    oid === 20 ? (v: string) => Number(v) : (pg.types.getTypeParser(oid, format) as unknown)) as typeof pg.types.getTypeParser,
};

async function ping(kysely: Kysely<Database>): Promise<boolean> {
  try {
    await sql`select 1`.execute(kysely);
    return true;
  } catch {
    return false;
  }
}
