// The console's one mapping from the agent engine's snapshots to its store (state/deskSnapshot.ts).
import { describe, expect, it } from 'vitest';
import { UNKNOWN_QUALITY, initialCallStatus, type AgentSnapshot, type ActiveCall } from '@lobby/call';
import '../src/i18n/index.ts';
import { fromDeskSnapshot } from '../src/state/deskSnapshot.ts';
import { createConsoleStore } from '../src/state/store.ts';

const call = (over: Partial<ActiveCall> = {}): ActiveCall => ({
  callId: 'g1--a',
  room: 'a1-g1@conference.lobby.local',
  guestNick: 'g1',
  startedAt: 0,
  callType: 'video',
  guestStatus: 'InCall|agent@lobby.local|g1--a',
  ...over,
});

const snapshot = (over: Partial<AgentSnapshot> = {}): AgentSnapshot => ({
  // an idle desk with no call (the engine's own snapshot shape)
  ...{ phase: 'idle', jid: 'agent@lobby.local', queue: [], runningCalls: [], activeCall: null },
  ...{ localStream: null, remoteFeeds: [], localScreen: null, status: initialCallStatus() },
  ...{ muted: { audio: false, video: false }, error: null, lastEnded: null, live: true, transfers: [] },
  mediaNotice: null,
  networkQuality: UNKNOWN_QUALITY,
  mediaReady: false,
  guestChangingPage: false,
  ...over,
});

/** Feeds snapshots one after another into a store, each at its own clock reading. */
function feed(steps: Array<[AgentSnapshot, number]>) {
  const store = createConsoleStore({ session: 'authenticated' });
  const names = new Map<string, string>();
  for (const [snap, now] of steps) store.setState(fromDeskSnapshot(snap, store.getState(), names, now));
  return store.getState();
}

describe('fromDeskSnapshot', () => {
  it('when media first flows, then the call timer starts; while joining it has not', () => {
    expect(
      feed([[snapshot({ phase: 'joining', activeCall: call() }), 1_000]]).activeCall?.talkingSince,
    ).toBeNull();
    expect(
      feed([
        [snapshot({ phase: 'joining', activeCall: call() }), 1_000],
        [snapshot({ phase: 'inCall', activeCall: call() }), 2_000],
      ]).activeCall?.talkingSince,
    ).toBe(2_000);
  });

  it('when the call is held and resumed under a new call id, then the timer keeps its start (one duration)', () => {
    const state = feed([
      [snapshot({ phase: 'inCall', activeCall: call() }), 2_000],
      [snapshot({ phase: 'inCall', activeCall: call({ held: true }) }), 10_000],
      [snapshot({ phase: 'joining', activeCall: call({ callId: 'g1--b', held: false }) }), 20_000],
      [snapshot({ phase: 'inCall', activeCall: call({ callId: 'g1--b' }) }), 21_000],
    ]);
    expect(state.activeCall).toMatchObject({ callId: 'g1--b', talkingSince: 2_000 });
  });

  it('when the guest\'s media stalls, then the store carries the notice and the poor line for the indicator', () => {
    const poor = { level: 'poor' as const, lossPercent: 100, rttMs: 40, jitterMs: 3 };
    const state = feed([[snapshot({ phase: 'inCall', activeCall: call(), mediaNotice: 'peerReconnecting', networkQuality: poor }), 1]]);
    expect(state.mediaNotice).toBe('peerReconnecting');
    expect(state.networkQuality).toEqual(poor);
  });

  it('when the guest changes page on the website, then the store carries it until its media is back', () => {
    const state = feed([
      [snapshot({ phase: 'inCall', activeCall: call() }), 1],
      [snapshot({ phase: 'inCall', activeCall: call(), guestChangingPage: true }), 2],
    ]);
    expect(state.guestChangingPage).toBe(true);
    expect(feed([[snapshot({ phase: 'inCall', activeCall: call(), guestChangingPage: false }), 1]]).guestChangingPage).toBe(false);
  });

  it('when the call is on hold, then the store says held; resumed, it does not', () => {
    const held = feed([[snapshot({ phase: 'inCall', activeCall: call({ held: true }) }), 1]]);
    expect(held.inCall.held).toBe(true);
    expect(feed([[snapshot({ phase: 'inCall', activeCall: call() }), 1]]).inCall.held).toBe(false);
  });

  it('when an answered call ends, then the store forgets it and offers the wrap-up note; the next call starts its own timer', () => {
    const state = feed([
      [snapshot({ phase: 'inCall', activeCall: call() }), 2_000],
      [snapshot({ phase: 'idle' }), 9_000],
    ]);
    expect(state.activeCall).toBeNull();
    expect(state.wrapUp?.callId).toBe('g1--a');
    const next = feed([
      [snapshot({ phase: 'inCall', activeCall: call() }), 2_000],
      [snapshot({ phase: 'idle' }), 9_000],
      [snapshot({ phase: 'inCall', activeCall: call({ callId: 'g2--c', guestNick: 'g2' }) }), 30_000],
    ]);
    expect(next.activeCall?.talkingSince).toBe(30_000);
  });

  it("when the engine mutes or unmutes, then the store shows the engine's state (mute is held once)", () => {
    const muted = feed([
      [snapshot({ phase: 'inCall', activeCall: call(), muted: { audio: true, video: false } }), 1],
    ]);
    expect([muted.audioMuted, muted.videoMuted]).toEqual([true, false]);
    // the engine unmutes on hold: the button must not keep saying muted
    const afterHold = feed([
      [snapshot({ phase: 'inCall', activeCall: call(), muted: { audio: true, video: true } }), 1],
      [
        snapshot({
          phase: 'inCall',
          activeCall: call({ held: true }),
          muted: { audio: false, video: false },
        }),
        2,
      ],
    ]);
    expect([afterHold.audioMuted, afterHold.videoMuted]).toEqual([false, false]);
  });
});

describe('fromDeskSnapshot with a long queue', () => {
  const waiting = (i: number): AgentSnapshot['queue'][number] => ({
    ...{ room: `a1-g${i}@conference.lobby.local`, nick: `g${i}`, guestJid: null, callId: `g${i}--a`, target: '' },
    ...{ appointmentID: '', assignmentId: 1, assignmentName: 'Sales', since: i, statusText: `OpenCall||g${i}--a` },
    ...{ lobby: { userType: 'guest' as const, appointmentID: '' }, callType: 'video' as const, offerExpiresAt: null },
  });

  it('when the desk sends the same queue again (a change of the call), then the store keeps its queue and rows', () => {
    const queue = Array.from({ length: 500 }, (_, i) => waiting(i));
    const store = createConsoleStore({ session: 'authenticated' });
    const names = new Map<string, string>();
    store.setState(fromDeskSnapshot(snapshot({ queue }), store.getState(), names, 1));
    const before = store.getState().queue;
    store.setState(fromDeskSnapshot(snapshot({ queue, error: 'x' }), store.getState(), names, 2));
    expect(store.getState().queue).toBe(before);
    // one guest more: a new list, but the 500 rows already there stay the same objects (no re-render)
    store.setState(fromDeskSnapshot(snapshot({ queue: [...queue, waiting(500)] }), store.getState(), names, 3));
    const after = store.getState().queue;
    expect(after).toHaveLength(501);
    expect(after.slice(0, 500).every((row, i) => row === before[i])).toBe(true);
  });
});
