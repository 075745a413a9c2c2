import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import { hotStatement, type HotStatement } from '../db/hotStatements.ts';
import type { CallRoutingTable, Database } from '../db/schema.ts';

/**
 * Round robin (docs/protocol.md "Round robin"): when a company has roundRobin on, the server
 * offers each new waiting call to ONE available agent of the call's assignment at a time. The offer
 * moves to the next available agent when the agent declines, when the offer times out (the company's
 * roundRobinOfferSeconds, default 20 s), or when the agent goes away or offline. Every agent is offered
 * a call at most once; when nobody took it (or nobody was available), the call is `open`: every agent of
 * the assignment sees it, as without round robin. An answered or ended call leaves the routing, and so
 * does a call whose guest vanished (services/vanishedGuests.ts).
 *
 * The state lives in the database (migration 0015_shared_routing), so every server instance on one
 * PostgreSQL routes the same calls (docs/architecture.md "Shared state"); SQLite runs the same code for
 * its one instance. Each move of an offer is one transaction holding the call's row (FOR UPDATE on
 * PostgreSQL); an offer whose deadline passed, or whose agent is gone, is moved by whichever instance
 * claims it first (FOR UPDATE SKIP LOCKED). An agent is present while its console's event stream is open
 * on an instance that still beats (`beat()`, every few seconds): an instance that died stops beating, and
 * after `presenceTtlMs` its agents are gone. The routing changes are published after their commit.
 */

export interface RoutingTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: RoutingTimers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    handle.unref();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** An agent with the console open (one or more event streams, on any instance). */
export interface OnlineAgent {
  userId: number;
  companyId: number;
  xmppUsername: string;
}

/** Where a call stands; sent to the consoles as `event: callRouting`. */
export interface CallRouting {
  callId: string;
  companyId: number;
  assignmentId: number;
  /** offered: only `offeredTo` lists the call; open: every agent of the assignment does */
  state: 'offered' | 'open';
  /** the XMPP username of the agent the call is offered to (offered only) */
  offeredTo: string | null;
  /** epoch ms when the offer moves on (offered only) */
  expiresAt: number | null;
  /** the offer's length in ms (offered only) */
  offerMs: number | null;
}

export const DEFAULT_OFFER_SECONDS = 20;
/** how often an instance says it is alive */
export const BEAT_MS = 5000;
/** an instance silent this long is dead: its agents' presence is gone */
export const PRESENCE_TTL_MS = 15_000;

export interface RoundRobinOptions {
  db: Db;
  /** this server instance (random per process) */
  instanceId: string;
  timers?: RoutingTimers;
  publish: (routing: CallRouting) => void;
  presenceTtlMs?: number;
  /** a failed background move (a deadline timer) */
  warn?: (message: string, error: unknown) => void;
}

type Tx = Kysely<Database> | Transaction<Database>;
type RoutingRow = Selectable<CallRoutingTable>;

const toRouting = (r: RoutingRow): CallRouting => ({
  callId: r.call_id,
  companyId: r.company_id,
  assignmentId: r.assignment_id,
  state: r.state,
  offeredTo: r.offered_to,
  expiresAt: r.expires_at,
  offerMs: r.state === 'offered' ? r.offer_ms : null,
});

export class RoundRobin {
  readonly instanceId: string;
  readonly #db: Kysely<Database>;
  readonly #postgres: boolean;
  readonly #timers: RoutingTimers;
  readonly #publish: (routing: CallRouting) => void;
  readonly #ttlMs: number;
  readonly #warn: (message: string, error: unknown) => void;
  /** a call leaves the routing: twice per call (answered, ended), prepared once (db/hotStatements.ts) */
  readonly #deleteRouting: HotStatement<unknown>;
  /** the agents whose streams are open on this instance: written again on every beat (an instance that
   * hung past the presence time and came back has its agents back) */
  readonly #present = new Map<number, { agent: OnlineAgent; connections: number }>();
  /** this instance's timers for the offers it made: the deadline moves on time (the poll is the backstop) */
  readonly #deadlines = new Map<string, unknown>();

  constructor(options: RoundRobinOptions) {
    this.instanceId = options.instanceId;
    this.#db = options.db.kysely;
    this.#postgres = options.db.dialect === 'postgres';
    this.#timers = options.timers ?? realTimers;
    this.#publish = options.publish;
    this.#ttlMs = options.presenceTtlMs ?? PRESENCE_TTL_MS;
    this.#warn = options.warn ?? (() => undefined);
    this.#deleteRouting = hotStatement(options.db, 'call_routing_delete', 'delete from call_routing where call_id = ?', { batch: true });
  }

  /** A console opened its event stream on this instance; resolves with the function that closes it. */
  async connect(agent: OnlineAgent): Promise<() => Promise<void>> {
    const mine = this.#present.get(agent.userId);
    this.#present.set(agent.userId, { agent, connections: (mine?.connections ?? 0) + 1 });
    await this.beat();
    await this.#writePresence(agent.userId);
    let closed = false;
    return async () => {
      if (closed) return;
      closed = true;
      const now = this.#present.get(agent.userId);
      if (now && now.connections > 1) {
        this.#present.set(agent.userId, { ...now, connections: now.connections - 1 });
        return this.#writePresence(agent.userId);
      }
      this.#present.delete(agent.userId);
      await this.#writePresence(agent.userId);
      await this.#moveOffersOf(agent.userId);
    };
  }

  /** this instance's row of the agent, as its streams here are: written, or deleted with the last one */
  async #writePresence(userId: number): Promise<void> {
    const mine = this.#present.get(userId);
    if (!mine) {
      await this.#db.deleteFrom('agent_presence').where('user_id', '=', userId).where('instance_id', '=', this.instanceId).execute();
      return;
    }
    const { agent, connections } = mine;
    await this.#db
      .insertInto('agent_presence')
      .values({ user_id: agent.userId, instance_id: this.instanceId, company_id: agent.companyId, xmpp_username: agent.xmppUsername, connections })
      .onConflict((oc) => oc.columns(['user_id', 'instance_id']).doUpdateSet({ connections, xmpp_username: agent.xmppUsername }))
      .execute();
  }

  /** Available ⇄ away, and busy (in a call): either makes the agent unavailable for offers. Any instance. */
  async setAvailability(userId: number, availability: { away: boolean; busy: boolean }): Promise<void> {
    const values = { away: availability.away ? 1 : 0, busy: availability.busy ? 1 : 0 };
    await this.#db
      .insertInto('agent_availability')
      .values({ user_id: userId, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .execute();
    if (availability.away || availability.busy) await this.#moveOffersOf(userId);
  }

  /** A new waiting call of a round-robin company: offer it to the next available agent. */
  async callOpened(call: { callId: string; companyId: number; assignmentId: number; offerSeconds?: number }): Promise<CallRouting> {
    const routing = await this.#db.transaction().execute(async (trx) => {
      const row: RoutingRow = {
        call_id: call.callId,
        company_id: call.companyId,
        assignment_id: call.assignmentId,
        state: 'open',
        offered_user_id: null,
        offered_to: null,
        expires_at: null,
        offer_ms: Math.max(1, call.offerSeconds ?? DEFAULT_OFFER_SECONDS) * 1000,
        tried: '[]',
      };
      return this.#offerNext(trx, row, 'insert');
    });
    this.#announce(routing);
    return routing;
  }

  /** The offered agent declines: the call moves on. Any instance: the row is the truth. */
  async decline(callId: string, userId: number): Promise<'moved' | 'notOffered' | 'unknown'> {
    const outcome = await this.#db.transaction().execute(async (trx) => {
      const row = await this.#lockCall(trx, callId);
      if (!row) return 'unknown' as const;
      if (row.state !== 'offered' || row.offered_user_id !== userId) return 'notOffered' as const;
      return this.#offerNext(trx, row);
    });
    if (typeof outcome === 'string') return outcome;
    this.#announce(outcome);
    return 'moved';
  }

  /** Answered, ended, or its guest vanished: the call leaves the routing. */
  async callClosed(callId: string): Promise<void> {
    this.#clearDeadline(callId);
    await this.#deleteRouting.first([callId]);
  }

  /** The company's agents with the console open on any live instance, available and not in a call (transfer targets). */
  async availableAgents(companyId: number): Promise<OnlineAgent[]> {
    const rows = await this.#available(this.#db, companyId).select(['p.user_id', 'p.xmpp_username']).distinct().orderBy('p.user_id').execute();
    return rows.map((r) => ({ userId: r.user_id, companyId, xmppUsername: r.xmpp_username }));
  }

  /** The company's agents with a console open, by state: available, in a call (busy), away (the wall board). */
  async agentStates(companyId: number): Promise<{ available: number; inCall: number; away: number }> {
    const rows = await this.#live(this.#db)
      .leftJoin('agent_availability as av', 'av.user_id', 'p.user_id')
      .where('p.company_id', '=', companyId)
      .select(['p.user_id', 'av.away', 'av.busy'])
      .distinct()
      .execute();
    const out = { available: 0, inCall: 0, away: 0 };
    for (const r of rows) {
      if (r.busy === 1) out.inCall += 1;
      else if (r.away === 1) out.away += 1;
      else out.available += 1;
    }
    return out;
  }

  async routing(callId: string): Promise<CallRouting | null> {
    const row = await this.#db.selectFrom('call_routing').selectAll().where('call_id', '=', callId).executeTakeFirst();
    return row ? toRouting(row) : null;
  }

  /** The routing of these calls (a console's room list), by call id. */
  async routings(callIds: string[]): Promise<Map<string, CallRouting>> {
    if (callIds.length === 0) return new Map();
    const rows = await this.#db.selectFrom('call_routing').selectAll().where('call_id', 'in', callIds).execute();
    return new Map(rows.map((r) => [r.call_id, toRouting(r)]));
  }

  /** This instance is alive (every BEAT_MS), with the agents present on it; dead instances' presence rows are dropped. */
  async beat(): Promise<void> {
    const now = this.#timers.now();
    const before = await this.#db.selectFrom('routing_instances').select('last_seen').where('instance_id', '=', this.instanceId).executeTakeFirst();
    await this.#db
      .insertInto('routing_instances')
      .values({ instance_id: this.instanceId, last_seen: now })
      .onConflict((oc) => oc.column('instance_id').doUpdateSet({ last_seen: now }))
      .execute();
    // the others took this instance for dead (it hung): its agents' rows may be gone, so they are written again
    if (!before || before.last_seen < now - this.#ttlMs) for (const userId of this.#present.keys()) await this.#writePresence(userId);
    const dead = this.#db.selectFrom('routing_instances').select('instance_id').where('last_seen', '<', now - this.#ttlMs).where('instance_id', '!=', this.instanceId);
    await this.#db.deleteFrom('agent_presence').where('instance_id', 'in', dead).execute();
    await this.#db.deleteFrom('routing_instances').where('last_seen', '<', now - this.#ttlMs).where('instance_id', '!=', this.instanceId).execute();
    // calls answered, ended or left by a path that did not close their routing (or while no instance ran)
    await this.#db
      .deleteFrom('call_routing')
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('call_reports as r')
            .select('r.id')
            .whereRef('r.call_id', '=', 'call_routing.call_id')
            .where((w) => w.or([w('r.call_ended_at', 'is not', null), w('r.call_answered_at', 'is not', null), w('r.guest_exit_at', 'is not', null)])),
        ),
      )
      .execute();
  }

  /**
   * Moves every offer whose deadline passed or whose agent is no longer available, each in its own
   * transaction; an offer another instance is moving right now is skipped (it holds the row). Answers
   * how many this call moved.
   */
  async moveDue(): Promise<number> {
    let moved = 0;
    for (;;) {
      const routing = await this.#db.transaction().execute(async (trx) => {
        const now = this.#timers.now();
        let query = trx
          .selectFrom('call_routing')
          .selectAll()
          .where('state', '=', 'offered')
          .where((eb) =>
            eb.or([
              eb('expires_at', '<=', now),
              eb('offered_user_id', 'not in', this.#live(trx).select('p.user_id')),
              eb('offered_user_id', 'in', trx.selectFrom('agent_availability').select('user_id').where((a) => a.or([a('away', '=', 1), a('busy', '=', 1)]))),
            ]),
          )
          .limit(1);
        if (this.#postgres) query = query.forUpdate().skipLocked();
        const row = await query.executeTakeFirst();
        return row ? this.#offerNext(trx, row) : null;
      });
      if (!routing) return moved;
      moved += 1;
      this.#announce(routing);
    }
  }

  /** This instance stops (graceful): its presence is gone at once, and the offers of its agents move on. */
  async leave(): Promise<void> {
    for (const handle of this.#deadlines.values()) this.#timers.clearTimeout(handle);
    this.#deadlines.clear();
    this.#present.clear();
    await this.#db.deleteFrom('agent_presence').where('instance_id', '=', this.instanceId).execute();
    await this.#db.deleteFrom('routing_instances').where('instance_id', '=', this.instanceId).execute();
    await this.moveDue();
  }

  /** presence rows on instances that still beat (this one always does: it is running this code) */
  #live(db: Tx) {
    const since = this.#timers.now() - this.#ttlMs;
    return db
      .selectFrom('agent_presence as p')
      .innerJoin('routing_instances as i', 'i.instance_id', 'p.instance_id')
      .where((eb) => eb.or([eb('i.last_seen', '>=', since), eb('i.instance_id', '=', this.instanceId)]))
      .where('p.connections', '>', 0);
  }

  /** the company's present agents who are neither away nor busy */
  #available(db: Tx, companyId: number) {
    return this.#live(db)
      .leftJoin('agent_availability as av', 'av.user_id', 'p.user_id')
      .where('p.company_id', '=', companyId)
      .where((eb) => eb.or([eb('av.user_id', 'is', null), eb.and([eb('av.away', '=', 0), eb('av.busy', '=', 0)])]));
  }

  async #lockCall(trx: Transaction<Database>, callId: string): Promise<RoutingRow | undefined> {
    let query = trx.selectFrom('call_routing').selectAll().where('call_id', '=', callId);
    if (this.#postgres) query = query.forUpdate();
    return query.executeTakeFirst();
  }

  async #moveOffersOf(userId: number): Promise<void> {
    const offered = await this.#db.selectFrom('call_routing').select('call_id').where('offered_user_id', '=', userId).execute();
    if (offered.length > 0) await this.moveDue();
  }

  /**
   * Offers the (locked) call to the next agent in the rotation: after the assignment's last offered agent,
   * by user id, wrapping; or opens it to all. A new call's row is inserted as it comes out (`insert`), in
   * one statement instead of an insert and an update. The assignment's rotation row is locked for the choice, so
   * two calls opened at once on two instances go to two agents.
   */
  async #offerNext(trx: Transaction<Database>, row: RoutingRow, write: 'insert' | 'update' = 'update'): Promise<CallRouting> {
    const tried = JSON.parse(row.tried) as number[];
    let next: { user_id: number; xmpp_username: string } | undefined;
    // Every candidate is a presence row of the company with a connection: when there is none, there is no
    // candidate, and neither the rotation nor the join of five tables below is read (the join costs ≈ 60 µs
    // on SQLite even over empty tables: docs/performance.md "Service API").
    const anyPresent = await trx
      .selectFrom('agent_presence')
      .select('user_id')
      .where('company_id', '=', row.company_id)
      .where('connections', '>', 0)
      .limit(1)
      .executeTakeFirst();
    if (anyPresent) {
      await trx.insertInto('routing_rotation').values({ assignment_id: row.assignment_id, last_user_id: null }).onConflict((oc) => oc.column('assignment_id').doNothing()).execute();
      let rotation = trx.selectFrom('routing_rotation').select('last_user_id').where('assignment_id', '=', row.assignment_id);
      if (this.#postgres) rotation = rotation.forUpdate();
      const last = (await rotation.executeTakeFirst())?.last_user_id ?? -Infinity;
      const candidates = await this.#available(trx, row.company_id)
        .innerJoin('user_assignments as ua', 'ua.user_id', 'p.user_id')
        .where('ua.assignment_id', '=', row.assignment_id)
        .select(['p.user_id', 'p.xmpp_username'])
        .distinct()
        .orderBy('p.user_id')
        .execute();
      const fresh = candidates.filter((c) => !tried.includes(c.user_id));
      next = fresh.find((c) => c.user_id > last) ?? fresh[0];
    }
    let updated: RoutingRow;
    if (!next) {
      updated = { ...row, state: 'open', offered_user_id: null, offered_to: null, expires_at: null };
    } else {
      updated = {
        ...row,
        state: 'offered',
        offered_user_id: next.user_id,
        offered_to: next.xmpp_username,
        expires_at: this.#timers.now() + row.offer_ms,
        tried: JSON.stringify([...tried, next.user_id]),
      };
      await trx.updateTable('routing_rotation').set({ last_user_id: next.user_id }).where('assignment_id', '=', row.assignment_id).execute();
    }
    if (write === 'insert') {
      await trx.insertInto('call_routing').values(updated).execute();
    } else {
      const { call_id: _id, ...changes } = updated;
      await trx.updateTable('call_routing').set(changes).where('call_id', '=', row.call_id).execute();
    }
    return toRouting(updated);
  }

  /** after the commit: this instance times the offer it made, and every console hears of it */
  #announce(routing: CallRouting): void {
    this.#clearDeadline(routing.callId);
    if (routing.state === 'offered' && routing.offerMs !== null) {
      const handle = this.#timers.setTimeout(() => {
        this.#deadlines.delete(routing.callId);
        this.moveDue().catch((error: unknown) => this.#warn('round robin: moving a due offer failed', error));
      }, routing.offerMs);
      this.#deadlines.set(routing.callId, handle);
    }
    this.#publish(routing);
  }

  #clearDeadline(callId: string): void {
    const handle = this.#deadlines.get(callId);
    if (handle === undefined) return;
    this.#timers.clearTimeout(handle);
    this.#deadlines.delete(callId);
  }
}
