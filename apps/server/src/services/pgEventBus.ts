import pg from 'pg';
import type { Db } from '../db/database.ts';
import { createEventBus } from './events.ts';
import type { AppEvents, EventBus } from './events.ts';

/**
 * The event bus of several server instances on one PostgreSQL (docs/architecture.md "Shared state"):
 * LISTEN/NOTIFY on one channel per schema.
 *
 * - publish delivers to this instance's subscribers at once, then sends `pg_notify` outside any
 *   transaction: the publishers publish after their writes committed, so a receiver that reads the
 *   database finds what the event speaks of. Notifications leave one at a time, in publishing order.
 * - a receiver ignores what its own instance sent (delivered in process already): no double delivery.
 * - a payload too large for NOTIFY (8000 bytes) is stored in bus_events and only its id is sent;
 *   receivers read the row (rows older than a minute are dropped by later large events).
 * - each instance has one dedicated listening connection (pg.Client). When it is lost the bus connects
 *   again with a growing delay and publishes `resync` in process: events sent meanwhile were missed,
 *   so the consoles reload their rooms and the caches are dropped.
 */

/** NOTIFY refuses payloads of 8000 bytes or more; leave room for the envelope's quoting. */
export const MAX_NOTIFY_BYTES = 7900;
const RECONNECT_MS = { first: 100, max: 5000 };
const LARGE_EVENT_KEEP_MS = 60_000;

interface Envelope {
  /** the sending instance */
  o: string;
  n: keyof AppEvents;
  /** the event, or the id of its bus_events row */
  e?: unknown;
  id?: number;
}

export interface PgEventBusOptions {
  db: Db;
  instanceId: string;
  log: (message: string, error?: unknown) => void;
  now?: () => number;
  reconnectMs?: { first: number; max: number };
}

export interface PgEventBus extends EventBus {
  start(): Promise<void>;
  close(): Promise<void>;
  /** the backend pid of the listening connection (tests end it with pg_terminate_backend) */
  listenerPid(): number | null;
}

/** the channel of the schema in use: tests run several schemas in one database side by side */
export const busChannel = (db: Db) => `lobby_events_${db.pgSchema ?? 'public'}`;

export function createPgEventBus(options: PgEventBusOptions): PgEventBus {
  const { db, instanceId, log } = options;
  if (db.raw.dialect !== 'postgres') throw new Error('the PostgreSQL event bus needs a PostgreSQL database');
  const pool = db.raw.pool;
  const now = options.now ?? Date.now;
  const backoff = options.reconnectMs ?? RECONNECT_MS;
  const channel = busChannel(db);
  const local = createEventBus();

  let sending: Promise<void> = Promise.resolve();
  let receiving: Promise<void> = Promise.resolve();
  let client: pg.Client | null = null;
  let closed = false;
  let everListened = false;
  let delay = backoff.first;
  let retry: NodeJS.Timeout | null = null;

  const send = async (name: keyof AppEvents, event: unknown): Promise<void> => {
    let payload = JSON.stringify({ o: instanceId, n: name, e: event } satisfies Envelope);
    if (Buffer.byteLength(payload) > MAX_NOTIFY_BYTES) {
      const at = now();
      const row = await db.kysely
        .insertInto('bus_events')
        .values({ name, payload: JSON.stringify(event), created_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.kysely.deleteFrom('bus_events').where('created_at', '<', at - LARGE_EVENT_KEEP_MS).execute();
      payload = JSON.stringify({ o: instanceId, n: name, id: row.id } satisfies Envelope);
    }
    await pool.query('select pg_notify($1, $2)', [channel, payload]);
  };

  const receive = async (payload: string | undefined): Promise<void> => {
    if (!payload) return;
    const envelope = JSON.parse(payload) as Envelope;
    if (envelope.o === instanceId) return;
    let event = envelope.e;
    if (envelope.id !== undefined) {
      const row = await db.kysely.selectFrom('bus_events').select('payload').where('id', '=', envelope.id).executeTakeFirst();
      if (!row) return log(`event bus: large event ${envelope.id} is gone`);
      event = JSON.parse(row.payload);
    }
    local.deliver(envelope.n, event as never);
  };

  const scheduleReconnect = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = null;
      listen().catch((error: unknown) => {
        log('event bus: listening again failed', error);
        scheduleReconnect();
      });
    }, delay);
    retry.unref();
    delay = Math.min(delay * 2, backoff.max);
  };

  const listen = async (): Promise<void> => {
    const c = new pg.Client(pool.options);
    let lost = false;
    const onLost = (error?: unknown) => {
      if (lost) return;
      lost = true;
      if (client === c) client = null;
      if (closed) return;
      log('event bus: the listening connection was lost', error);
      c.end().catch(() => undefined);
      scheduleReconnect();
    };
    c.on('error', onLost);
    c.on('end', () => onLost());
    c.on('notification', (message) => {
      if (message.channel !== channel) return;
      receiving = receiving.then(() => receive(message.payload)).catch((error: unknown) => log('event bus: a notification failed', error));
    });
    try {
      await c.connect();
      await c.query(`listen "${channel}"`);
    } catch (error) {
      lost = true;
      c.end().catch(() => undefined);
      throw error;
    }
    if (closed) {
      await c.end();
      return;
    }
    client = c;
    delay = backoff.first;
    if (everListened) local.deliver('resync', { reason: 'the event bus reconnected' });
    everListened = true;
  };

  return {
    publish(name, event) {
      local.deliver(name, event);
      if (name === 'resync') return;
      sending = sending.then(() => send(name, event)).catch((error: unknown) => log(`event bus: sending ${name} failed`, error));
    },
    subscribe: (name, listener) => local.subscribe(name, listener),
    start: listen,
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await sending;
      const c = client;
      client = null;
      await c?.end();
    },
    listenerPid() {
      return (client as { processID?: number } | null)?.processID ?? null;
    },
  };
}

/** DATABASE_URL decides: PostgreSQL → LISTEN/NOTIFY between the instances; SQLite (one instance) → memory. */
export function createEventBusFor(db: Db, options: Omit<PgEventBusOptions, 'db'>): EventBus {
  return db.dialect === 'postgres' ? createPgEventBus({ db, ...options }) : createEventBus();
}
