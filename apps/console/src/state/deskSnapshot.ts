// The one place the console reads the agent engine's snapshots (AgentDesk 'change'): what the store
// becomes after one. Pure, so that it is tested with plain snapshots (apps/console/test/deskSnapshot.test.ts).
import type { AgentSnapshot, QueueEntry } from '@lobby/call';
import { callClock } from './callClock.ts';
import { guestDisplayName } from './guestName.ts';
import { sortQueue, type ConsoleData } from './store.ts';

/**
 * The store's data after `snap`. `names` remembers the names guests announced, by their room nick, for
 * the call after it leaves the queue (it is updated here). `now` starts the call's timer.
 */
export function fromDeskSnapshot(
  snap: AgentSnapshot,
  state: ConsoleData,
  names: Map<string, string>,
  now: number,
): Partial<ConsoleData> {
  const queue = consoleQueue(snap.queue, names);
  const next: Partial<ConsoleData> = {
    queue,
    error: snap.error,
    live: snap.live,
    mediaReady: snap.mediaReady,
    // the media server waited for or reconnected to (features/call/MediaNotice)
    mediaNotice: snap.mediaNotice,
    // the guest's page goes and its next page takes the call back (features/call/MediaNotice)
    guestChangingPage: snap.guestChangingPage,
    networkQuality: snap.networkQuality,
    // the microphone and camera are the engine's: the store shows its state (it resets them on hold)
    audioMuted: snap.muted.audio,
    videoMuted: snap.muted.video,
    inCall: {
      ...state.inCall,
      status: snap.status,
      localScreen: snap.localScreen,
      held: !!snap.activeCall?.held,
      // the same array while nobody listed changed (agent/waitingQueue.ts)
      runningCalls: snap.runningCalls,
    },
  };
  const current = state.transfers.incoming;
  if (snap.transfers !== current && (snap.transfers.length > 0 || current.length > 0)) {
    next.transfers = { ...state.transfers, incoming: snap.transfers };
  }
  const active = snap.activeCall;
  const ended = state.activeCall;
  if (!active) {
    if (ended) {
      // an answered call ended: offer the note after the call (wrap-up)
      if (ended.talkingSince != null) next.wrapUp = { callId: ended.callId, guestName: ended.guestName };
      Object.assign(next, { activeCall: null, localStream: null, remoteFeeds: [] });
    }
    return next;
  }
  next.activeCall = {
    ...active,
    guestName: guestDisplayName(active.guestNick, names.get(active.guestNick)),
    assignmentName: assignmentOf(queue.find((q) => q.callId === active.callId), ended?.assignmentName),
    // one duration for the whole hold chain: hold and resume keep the call (under a new id), not the timer
    talkingSince: callClock(ended?.talkingSince ?? null, snap.phase === 'inCall', now),
  };
  next.localStream = snap.localStream;
  next.remoteFeeds = snap.remoteFeeds;
  return next;
}

/**
 * Why cached: the desk sends a snapshot on every change of the call too, and its queue array
 * is the same object while nobody arrived or left (agent/waitingQueue.ts). Sorting thousands of entries
 * for each would be wasted; the entries are the desk's own, so a row re-renders only when its guest changed.
 */
const sortedQueues = new WeakMap<readonly QueueEntry[], QueueEntry[]>();

function consoleQueue(queue: readonly QueueEntry[], names: Map<string, string>): QueueEntry[] {
  const known = sortedQueues.get(queue);
  if (known) return known;
  for (const e of queue) if (e.lobby?.name) names.set(e.nick, e.lobby.name);
  const sorted = sortQueue(queue);
  sortedQueues.set(queue, sorted);
  return sorted;
}

/** The active call's assignment: its queue entry's while it is listed, else the one it had. */
function assignmentOf(entry: QueueEntry | undefined, before: string | undefined): string {
  return entry ? (entry.assignmentName ?? '') : (before ?? '');
}
