import type { WaitEstimateWords, WaitPlace } from '@lobby/contracts';
import type { WaitingCall } from '../repositories/waitingQueue.ts';
import type { Services } from './index.ts';
import { estimateWait, MIN_HISTORY, type WaitEstimate, type WaitHistory } from './waitEstimate.ts';

/**
 * A waiting guest's place in its pool and the estimate of its wait (docs/guest-journey.md "Place in the
 * queue and estimate"). The pool's history is read at most every HISTORY_TTL_MS per pool and instance:
 * guests poll every few seconds, the history moves by the minute.
 */

/** how far back the history reaches, and how many calls of it count at most */
export const HISTORY_WINDOW_MS = 2 * 3600_000;
const HISTORY_LIMIT = 200;
const HISTORY_TTL_MS = 30_000;
/** the share of recent waits read as an agent's pick-up time: the shortest quarter (calls that found an agent free) */
const PICKUP_SHARE = 0.25;

export interface WaitingPlaceCall extends WaitingCall {
  agent_answered_at: number | null;
  call_ended_at: number | null;
}

const histories = new WeakMap<Services, Map<string, { at: number; history: WaitHistory }>>();

async function poolHistory(
  services: Services,
  companyId: number,
  assignmentId: number | null,
  now: number,
): Promise<WaitHistory> {
  const cache = histories.get(services) ?? new Map<string, { at: number; history: WaitHistory }>();
  histories.set(services, cache);
  const key = `${companyId}:${assignmentId ?? ''}`;
  const cached = cache.get(key);
  if (cached && now - cached.at < HISTORY_TTL_MS) return cached.history;
  const read = await services.repos.waitingQueue.history(
    companyId,
    assignmentId,
    now - HISTORY_WINDOW_MS,
    HISTORY_LIMIT,
  );
  const waits = [...read.waitMs].sort((a, b) => a - b);
  const waited = read.waitMs.reduce((a, b) => a + b, 0) + read.abandonedWaitMs.reduce((a, b) => a + b, 0);
  const history: WaitHistory = {
    handleMs: read.handleMs,
    pickupMs: waits.slice(0, Math.max(1, Math.ceil(waits.length * PICKUP_SHARE))),
    // a patience that runs out at this rate: calls left unanswered per ms spent waiting
    abandonPerMs: waited > 0 ? read.abandonedWaitMs.length / waited : 0,
  };
  cache.set(key, { at: now, history });
  return history;
}

/** The words an estimate warrants, in whole minutes (rounded; "more than N" rounded down). */
export function estimateWords(estimate: WaitEstimate): WaitEstimateWords | null {
  switch (estimate.kind) {
    case 'underMinute':
      return { kind: 'underMinute' };
    case 'minutes':
      return { kind: 'minutes', minutes: Math.max(1, Math.round(estimate.saidMs / 60_000)) };
    case 'fewMinutes':
      return { kind: 'fewMinutes' };
    case 'longWait':
      return { kind: 'longWait', atLeastMinutes: Math.max(1, Math.floor(estimate.atLeastMs / 60_000)) };
    case 'none':
      return null;
  }
}

export async function waitingPlaceOf(services: Services, call: WaitingPlaceCall): Promise<WaitPlace> {
  if (call.agent_answered_at !== null || call.call_ended_at !== null)
    return { waiting: false, position: null, estimate: null };
  const company = await services.companySnapshots.get(call.company_id);
  const settings = company?.company.settings;
  const showPosition = settings?.queuePosition !== false;
  const showEstimate = settings?.waitEstimate !== false;
  if (!showPosition && !showEstimate) return { waiting: true, position: null, estimate: null };
  const now = services.now();
  const since = now - services.config.openCallHours * 3600_000;
  const ahead = await services.repos.waitingQueue.ahead(call, since);
  let estimate: WaitEstimateWords | null = null;
  // an appointment call waits for its own agent: no pool history speaks for it
  if (showEstimate && call.appointment_reference === null) {
    const history = await poolHistory(services, call.company_id, call.assignment_id, now);
    // too little history for any estimate: the agents are not read (every waiting guest asks every 10 s)
    if (history.handleMs.length < MIN_HISTORY)
      return { waiting: true, position: showPosition ? ahead + 1 : null, estimate: null };
    const busy = await services.repos.waitingQueue.inProgress(
      call.company_id,
      call.assignment_id,
      since,
      now,
    );
    // the pool's agents online, available and not in a call (round robin's presence, shared by the instances)
    const available = await services.roundRobin.availableAgents(call.company_id);
    const free =
      call.assignment_id === null
        ? 0
        : await services.repos.waitingQueue.serving(
            call.assignment_id,
            available.map((a) => a.userId),
          );
    const agents = [
      ...Array.from({ length: free }, () => ({ busyForMs: null })),
      ...busy.map((ms) => ({ busyForMs: ms })),
    ];
    // seeded by the call and the minute: the same answer on every poll of that minute
    estimate = estimateWords(
      estimateWait({ ahead, agents }, history, call.id * 7919 + Math.floor(now / 60_000)),
    );
  }
  return { waiting: true, position: showPosition ? ahead + 1 : null, estimate };
}
