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
 * In-process event bus. One instance only: with several API instances behind a load balancer this becomes
 * PostgreSQL LISTEN/NOTIFY (or similar) behind the same interface.
 */
export interface EventBus {
  publish<K extends keyof AppEvents>(name: K, event: AppEvents[K]): void;
  /** returns the unsubscribe function */
  subscribe<K extends keyof AppEvents>(name: K, listener: (event: AppEvents[K]) => void): () => void;
}

export function createEventBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish(name, event) {
      emitter.emit(name, event);
    },
    subscribe(name, listener) {
      emitter.on(name, listener);
      return () => emitter.off(name, listener);
    },
  };
}
