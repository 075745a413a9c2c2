/**
 * Round robin (docs/protocol.md "Round robin"): when a company has roundRobin on, the server
 * offers each new waiting call to ONE available agent of the call's assignment at a time. The offer
 * moves to the next available agent when the agent declines, when the offer times out (the company's
 * roundRobinOfferSeconds, default 20 s), or when the agent goes away or offline. Every agent is offered
 * a call at most once; when nobody took it (or nobody was available), the call is `open`: every agent of
 * the assignment sees it, as without round robin. An answered or ended call leaves the routing, and so
 * does a call whose guest vanished (services/vanishedGuests.ts).
 *
 * Framework-free and in memory (like the event bus): the clock and the timers are injected so the unit
 * tests drive time by hand. Several API instances would share this state through the same bus.
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

/** An agent with the console open (one or more event streams). */
export interface OnlineAgent {
  userId: number;
  companyId: number;
  xmppUsername: string;
  /** the assignments the agent serves (user_assignments) */
  assignmentIds: number[];
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

interface AgentState extends OnlineAgent {
  connections: number;
  away: boolean;
  busy: boolean;
}

interface CallState {
  routing: CallRouting;
  offeredUserId: number | null;
  /** agents already offered this call (each at most once) */
  tried: Set<number>;
  timeoutMs: number;
  timer: unknown;
}

export const DEFAULT_OFFER_SECONDS = 20;

export class RoundRobin {
  readonly #timers: RoutingTimers;
  readonly #publish: (routing: CallRouting) => void;
  readonly #agents = new Map<number, AgentState>();
  /** the latest availability each agent told us, kept across reconnects (the console may say it first) */
  readonly #prefs = new Map<number, { away: boolean; busy: boolean }>();
  readonly #calls = new Map<string, CallState>();
  /** per assignment: the user id of the agent who got the latest offer (the rotation's position) */
  readonly #last = new Map<number, number>();

  constructor(options: { timers?: RoutingTimers; publish: (routing: CallRouting) => void }) {
    this.#timers = options.timers ?? realTimers;
    this.#publish = options.publish;
  }

  /** A console opened its event stream; returns the function that closes it. */
  connect(agent: OnlineAgent): () => void {
    const known = this.#agents.get(agent.userId);
    if (known) {
      known.connections += 1;
      known.assignmentIds = agent.assignmentIds;
    } else {
      const prefs = this.#prefs.get(agent.userId) ?? { away: false, busy: false };
      this.#agents.set(agent.userId, { ...agent, connections: 1, ...prefs });
    }
    let closed = false;
    return () => {
      if (closed) return;
      closed = true;
      const state = this.#agents.get(agent.userId);
      if (!state) return;
      state.connections -= 1;
      if (state.connections <= 0) {
        this.#agents.delete(agent.userId);
        this.#moveOffersOf(agent.userId);
      }
    };
  }

  /** The agent's assignments changed (the event stream refreshes them). */
  updateAssignments(userId: number, assignmentIds: number[]): void {
    const state = this.#agents.get(userId);
    if (state) state.assignmentIds = assignmentIds;
  }

  /** Available ⇄ away, and busy (in a call): either makes the agent unavailable for offers. */
  setAvailability(userId: number, availability: { away: boolean; busy: boolean }): boolean {
    this.#prefs.set(userId, { ...availability });
    const state = this.#agents.get(userId);
    if (!state) return false;
    state.away = availability.away;
    state.busy = availability.busy;
    if (!this.#available(state)) this.#moveOffersOf(userId);
    return true;
  }

  /** A new waiting call of a round-robin company: offer it to the next available agent. */
  callOpened(call: { callId: string; companyId: number; assignmentId: number; offerSeconds?: number }): CallRouting {
    const state: CallState = {
      routing: { callId: call.callId, companyId: call.companyId, assignmentId: call.assignmentId, state: 'open', offeredTo: null, expiresAt: null, offerMs: null },
      offeredUserId: null,
      tried: new Set(),
      timeoutMs: Math.max(1, call.offerSeconds ?? DEFAULT_OFFER_SECONDS) * 1000,
      timer: null,
    };
    this.#calls.set(call.callId, state);
    this.#offerNext(state);
    return state.routing;
  }

  /** The offered agent declines: the call moves on. */
  decline(callId: string, userId: number): 'moved' | 'notOffered' | 'unknown' {
    const state = this.#calls.get(callId);
    if (!state) return 'unknown';
    if (state.offeredUserId !== userId) return 'notOffered';
    this.#offerNext(state);
    return 'moved';
  }

  /** Answered, ended, or its guest vanished: the call leaves the routing. */
  callClosed(callId: string): void {
    const state = this.#calls.get(callId);
    if (!state) return;
    this.#timers.clearTimeout(state.timer);
    this.#calls.delete(callId);
  }

  /** The company's agents with the console open, available and not in a call (transfer targets). */
  availableAgents(companyId: number): OnlineAgent[] {
    return [...this.#agents.values()]
      .filter((a) => a.companyId === companyId && this.#available(a))
      .map(({ userId, companyId: c, xmppUsername, assignmentIds }) => ({ userId, companyId: c, xmppUsername, assignmentIds }));
  }

  routing(callId: string): CallRouting | null {
    return this.#calls.get(callId)?.routing ?? null;
  }

  #available(a: AgentState): boolean {
    return a.connections > 0 && !a.away && !a.busy;
  }

  #moveOffersOf(userId: number): void {
    for (const state of this.#calls.values()) if (state.offeredUserId === userId) this.#offerNext(state);
  }

  /** The next agent in the rotation: after the assignment's last offered agent, by user id, wrapping. */
  #nextAgent(state: CallState): AgentState | null {
    const { companyId, assignmentId } = state.routing;
    const candidates = [...this.#agents.values()]
      .filter((a) => a.companyId === companyId && a.assignmentIds.includes(assignmentId))
      .filter((a) => this.#available(a) && !state.tried.has(a.userId))
      .sort((a, b) => a.userId - b.userId);
    if (candidates.length === 0) return null;
    const last = this.#last.get(assignmentId) ?? -Infinity;
    return candidates.find((a) => a.userId > last) ?? candidates[0] ?? null;
  }

  #offerNext(state: CallState): void {
    this.#timers.clearTimeout(state.timer);
    state.timer = null;
    const next = this.#nextAgent(state);
    if (!next) {
      state.offeredUserId = null;
      state.routing = { ...state.routing, state: 'open', offeredTo: null, expiresAt: null, offerMs: null };
    } else {
      state.tried.add(next.userId);
      state.offeredUserId = next.userId;
      this.#last.set(state.routing.assignmentId, next.userId);
      const expiresAt = this.#timers.now() + state.timeoutMs;
      state.routing = { ...state.routing, state: 'offered', offeredTo: next.xmppUsername, expiresAt, offerMs: state.timeoutMs };
      state.timer = this.#timers.setTimeout(() => {
        if (this.#calls.get(state.routing.callId) === state) this.#offerNext(state);
      }, state.timeoutMs);
    }
    this.#publish(state.routing);
  }
}
