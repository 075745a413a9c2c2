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
