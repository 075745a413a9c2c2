import type { CallRoutingInfo } from '@lobby/contracts';
import type { CallRouting } from './roundRobin.ts';

/** The console's view of a call's routing (times as ISO strings, no company id). */
export function routingInfo(r: CallRouting): CallRoutingInfo {
  return {
    callId: r.callId,
    assignmentId: r.assignmentId,
    state: r.state,
    offeredTo: r.offeredTo,
    expiresAt: r.expiresAt === null ? null : new Date(r.expiresAt).toISOString(),
    offerSeconds: r.offerMs === null ? null : Math.round(r.offerMs / 1000),
  };
}
