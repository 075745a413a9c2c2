import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { Db } from './database.ts';
import type { Database } from './schema.ts';

/**
 * A statement that runs on every request of a hot route (POST /api/call-report/add, and the other requests
 * of a guest's visit: docs/performance.md "Service API"), prepared once instead of built and compiled by
 * Kysely each time (≈ a third of the add route's database CPU). Written with `?` placeholders; PostgreSQL
 * gets `$1…` and a named prepared statement.
 */
export interface HotStatement<Row> {
  /** Runs the statement with these parameters; its first row (undefined when none). */
  first(params: readonly unknown[]): Promise<Row | undefined>;
  /** Runs the statement with these parameters; all its rows (not with `batch`). */
  all(params: readonly unknown[]): Promise<Row[]>;
}

export interface HotStatementOptions {
  /**
   * SQLite: the writes asked for in one turn of the event loop share one transaction (one commit, one
   * write of each touched page to the WAL, instead of one per row), whichever batched statements they
   * are. Each row still answers on its own: a row that fails (a constraint) fails alone, as it would have
   * in its own transaction.
   */
  batch?: boolean;
  /**
   * SQLite: the statement is an insert that ends in `returning <rowid column>`: run it without the
   * RETURNING clause and answer `{ <column>: the new rowid }` when it inserted a row, nothing when it did
   * not (`on conflict do nothing`). SQLite gathers RETURNING rows apart and hands them over at the end of
   * the statement (≈ 1 µs per row of the report insert, ≈ 6 % of its SQLite time).
   */
  returnsRowid?: boolean;
}

export function hotStatement<Row>(
  db: Db,
  name: string,
  text: string,
  options: HotStatementOptions = {},
): HotStatement<Row> {
  const raw = db.raw;
  if (raw.dialect === 'postgres') {
    let n = 0;
    const pgText = text.replace(/\?/g, () => `$${++n}`);
    const query = (params: readonly unknown[]) => raw.pool.query<Row & object>({ name, text: pgText, values: params as unknown[] });
    return {
      async first(params) {
        return (await query(params)).rows[0];
      },
      async all(params) {
        return (await query(params)).rows;
      },
    };
  }
  const database = raw.database;
  const returning = options.returnsRowid ? /\s+returning\s+(\w+)\s*$/i.exec(text) : null;
  if (options.returnsRowid && !returning) throw new Error(`${name}: returnsRowid needs a statement ending in "returning <column>"`);
  const sqliteText = returning ? text.slice(0, returning.index) : text;
  const rowidColumn = returning?.[1];
  let stmt: SQLite.Statement | null = null;
  const prepared = () => (stmt ??= database.prepare(sqliteText));
  const runOne = (params: readonly unknown[]) => {
    const s = prepared();
    if (s.reader) return s.get(...params) as Row | undefined;
    const info = s.run(...params);
    if (rowidColumn === undefined || info.changes === 0) return undefined;
    return { [rowidColumn]: Number(info.lastInsertRowid) } as Row;
  };
  // A Kysely transaction keeps SQLite's only connection across awaits: a statement run now would join it.
  // Kysely's connection lock makes it wait for that transaction to end.
  const allViaKysely = async (params: readonly unknown[]) => (await db.kysely.executeQuery<Row>(CompiledQuery.raw(text, params as unknown[]))).rows;
  const viaKysely = async (params: readonly unknown[]) => (await allViaKysely(params))[0];
  const all = async (params: readonly unknown[]) => {
    if (database.inTransaction) return allViaKysely(params);
    return prepared().all(...params) as Row[];
  };

  if (!options.batch) {
    return {
      async first(params) {
        if (database.inTransaction) return viaKysely(params);
        return runOne(params);
      },
      all,
    };
  }

  return {
    first(params) {
      return new Promise<Row | undefined>((resolve, reject) => {
        enqueue(database, { run: () => runOne(params), viaKysely: () => viaKysely(params), resolve: resolve as (row: unknown) => void, reject });
      });
    },
    all: () => Promise.reject(new Error(`${name}: a batched statement answers first() only`)),
  };
}

/**
 * A query Kysely builds, of a fixed shape, as a hot statement: built and compiled once with a marker for
 * each argument, its SQL prepared, and each call's arguments put where the markers were. The builder must
 * pass each argument as parameters (no list, no inlined literal): a marker missing throws at start-up.
 */
export function hotQuery<Args extends unknown[], Row>(
  db: Db,
  name: string,
  build: (kysely: Kysely<Database>, ...args: Args) => Compilable<Row>,
  arity: Args['length'],
): { first(...args: Args): Promise<Row | undefined>; all(...args: Args): Promise<Row[]> } {
  const markers = Array.from({ length: arity }, (_, i) => `\u0001${name}:${i}`);
  const compiled = build(db.kysely, ...(markers as Args)).compile();
  const slots = markers.map((marker, n) => {
    const at = compiled.parameters.flatMap((p, i) => (p === marker ? [i] : []));
    if (at.length === 0) throw new Error(`${name}: argument ${n} is no parameter of the query`);
    return at;
  });
  const stmt = hotStatement<Row>(db, name, compiled.sql);
  const params = (args: Args) => {
    const values = [...compiled.parameters];
    args.forEach((arg, i) => {
      for (const at of slots[i] ?? []) values[at] = arg;
    });
    return values;
  };
  return { first: (...args) => stmt.first(params(args)), all: (...args) => stmt.all(params(args)) };
}

type Pending = {
  run: () => unknown;
  viaKysely: () => Promise<unknown>;
  resolve: (row: unknown) => void;
  reject: (err: unknown) => void;
};
/** each database's batched writes of this turn of the event loop, of whichever statements */
const queues = new WeakMap<SQLite.Database, Pending[]>();

function enqueue(database: SQLite.Database, item: Pending): void {
  const queue = queues.get(database);
  if (queue) {
    queue.push(item);
    return;
  }
  queues.set(database, [item]);
  setImmediate(() => {
    const items = queues.get(database) ?? [];
    queues.delete(database);
    flush(database, items);
  });
}

function flush(database: SQLite.Database, items: Pending[]): void {
  if (database.inTransaction) {
    for (const item of items) item.viaKysely().then(item.resolve, item.reject);
    return;
  }
  const results: Array<{ row?: unknown; error?: unknown }> = [];
  try {
    const all = () => {
      for (const item of items) {
        try {
          results.push({ row: item.run() });
        } catch (error) {
          // SQLite undoes the failed statement alone, unless the error ended the transaction (I/O, full
          // disk, busy): then the whole batch fails, and nothing of it was written
          if (items.length > 1 && !database.inTransaction) throw error;
          results.push({ error });
        }
      }
    };
    if (items.length === 1) all();
    else database.transaction(all)();
  } catch (error) {
    for (const item of items) item.reject(error);
    return;
  }
  items.forEach((item, i) => {
    const r = results[i] as { row?: unknown; error?: unknown };
    if ('error' in r) item.reject(r.error);
    else item.resolve(r.row);
  });
}
