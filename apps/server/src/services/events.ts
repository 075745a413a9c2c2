import { EventEmitter } from 'node:events';
import type { CallRouting } from './roundRobin.ts';

/** Published after POST /api/call-report/add; the console's SSE stream forwards it to the agents of the room. */
export interface CallOpenedEvent {
  companyId: number;
  assignmentId: number | null;
  assignmentName: string | null;
  room: string | null;
  guestUsername: string;
  callId: string;
  reportId: number;
  openedAt: number;
  /** the appointment agent's XMPP username for an appointment call: only that agent is told */
  appointmentAgent?: string | null;
}

export interface AppEvents {
  callOpened: CallOpenedEvent;
  /** round robin: a call was offered to an agent, moved on, or became open to all */
  callRouting: CallRouting;
  /** a call handed to an agent (toUserId) or to the agents of an assignment (toAssignmentId) */
  callTransfer: CallTransferEvent;
  /** the call's new agent took it: the old agent leaves once it sees the new one in the call */
  transferAccepted: { companyId: number; id: number; callId: string; toJid: string };
  /**
   * a call of the company was opened, answered, ended or booked, or an agent's availability changed: the
   * supervisors' wall boards read their figures again (docs/protocol.md "Console events")
   */
  callStats: { companyId: number };
  /** a console write changed what opening a call reads of the company: every instance drops its snapshot */
  companyChanged: { companyId: number };
  /**
   * This instance may have missed events (its LISTEN connection was lost and is back): the consoles
   * reload their rooms, the caches are dropped. Published locally only.
   */
  resync: { reason: string };
}

export interface CallTransferEvent {
  companyId: number;
  id: number;
  callId: string;
  room: string;
  guestUsername: string;
  fromName: string;
  fromJid: string;
  toUserId: number | null;
  toAssignmentId: number | null;
}

/**
 * The bus the server's parts talk through. Publishing delivers to this instance's subscribers at once
 * (synchronously) and, on PostgreSQL, to every other instance after the publisher's commit
 * (services/pgEventBus.ts; docs/architecture.md "Shared state"). `createEventBusFor` picks by the database.
 */
export interface EventBus {
  publish<K extends keyof AppEvents>(name: K, event: AppEvents[K]): void;
  /** returns the unsubscribe function */
  subscribe<K extends keyof AppEvents>(name: K, listener: (event: AppEvents[K]) => void): () => void;
  /** starts listening to the other instances (resolves once it does); the memory bus has nobody to hear */
  start?(): Promise<void>;
  close?(): Promise<void>;
}

/** The bus of one instance (SQLite, or tests): delivery in process only. */
export function createEventBus(): EventBus & { deliver<K extends keyof AppEvents>(name: K, event: AppEvents[K]): void } {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const deliver = <K extends keyof AppEvents>(name: K, event: AppEvents[K]) => {
    emitter.emit(name, event);
  };
  return {
    publish: deliver,
    deliver,
    subscribe(name, listener) {
      emitter.on(name, listener);
      return () => emitter.off(name, listener);
    },
  };
}
