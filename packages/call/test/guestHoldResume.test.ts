/**
 * Hold and resume, the guest's side (src/guest/holdResume.ts), on its own: a hold only in an ongoing call,
 * announced with its holder; a resume linked by hold-call, published under the new call id and announced
 * CallResumed (once, however many resumes arrive); a failed resume ends the call.
 */
import { describe, expect, it } from 'vitest';
import { HoldResume, type HeldCallView } from '../src/guest/holdResume.ts';
import { initialCallStatus } from '../src/state/callStatus.ts';
import type { SignallingPort } from '../src/room/ports.ts';
import { createFakeGuestApi, fakeStream, settle } from './helpers/fakes.ts';
import { heldRoom } from './helpers/testMedia.ts';

function holdResumeOf(start: Partial<HeldCallView> = {}) {
  const api = createFakeGuestApi('guest1');
  const state: HeldCallView & { localStream?: MediaStream } = {
    phase: 'ongoing',
    callId: 'call-2',
    initialCallId: 'call-1',
    callKind: 'voice',
    status: { ...initialCallStatus(), peerCall: 'Resumed' },
    ...start,
  };
  const announced: Array<[string | undefined, string | undefined]> = [];
  const held: string[] = [];
  const started: Array<{ callId: string; kind: string }> = [];
  const failures: string[] = [];
  const { room, teardown } = heldRoom(state);
  let startMedia: (callId: string) => Promise<void> = (callId) => {
    started.push({ callId, kind: state.callKind });
    return Promise.resolve();
  };
  const feature = new HoldResume({
    api,
    room,
    agents: { holder: (from) => (held.push(from), 'agent1@lobby.test') },
    presence: { announce: (override, target) => void announced.push([override, target]) },
    read: () => state,
    write: (patch) => Object.assign(state, patch),
    call: () => ({ username: 'guest1', xmpp: {} as SignallingPort, assignmentId: 4 }),
    localMedia: (kind) => Promise.resolve(fakeStream(kind === 'video')),
    initiated: (callId) => (api.timestamps.push({ callId, flags: ['call_initiated_timestamp'] }), Promise.resolve()),
    startMedia: (callId) => startMedia(callId),
    failed: (callId, message) => (failures.push(`${callId}: ${message}`), Promise.resolve()),
  });
  return { api, state, announced, held, started, failures, teardown, feature, failStart: (error: Error) => (startMedia = () => Promise.reject(error)) };
}

describe('guest hold and resume', () => {
  it('when an agent holds an ongoing call, then the call is Paused and CallOnHold names the holder; a second hold or a hold while waiting does nothing', () => {
    const { state, announced, held, feature } = holdResumeOf();
    void feature.hold('room/agent1');
    expect(state.status.peerCall).toBe('Paused');
    expect(state.status.OnHoldCount).toBe(1);
    expect(announced).toEqual([['CallOnHold', 'agent1@lobby.test']]);
    void feature.hold('room/agent1');
    expect(held).toEqual(['room/agent1']);

    const waiting = holdResumeOf({ phase: 'waiting' });
    void waiting.feature.hold('room/agent1');
    expect(waiting.state.status.peerCall).toBe('Resumed');
  });

  it('when the agent resumes, then after the hold\'s teardown the call is linked by hold-call, continues under a new id, and CallResumed is announced once', async () => {
    const { api, state, announced, started, teardown, feature } = holdResumeOf();
    void feature.hold('room/agent1');
    void feature.resume();
    void feature.resume(); // the control twice (two servers): one resume
    await settle();
    expect(api.holdCalls).toEqual([]); // the teardown is not over
    teardown.resolve();
    await settle();
    expect(api.holdCalls).toHaveLength(1);
    const next = state.callId!;
    expect(next).not.toBe('call-2');
    expect(next.startsWith('guest1-')).toBe(true);
    expect(api.holdCalls[0]).toEqual({ origin_call_id: 'call-1', current_call_id: 'call-2', new_call_id: next, assignment_id: 4, guest_username: 'guest1' });
    expect(state.status.peerCall).toBeNull();
    expect(state.localStream).toBeTruthy();
    expect(api.timestamps).toEqual([{ callId: next, flags: ['call_initiated_timestamp'] }]);
    expect(started).toEqual([{ callId: next, kind: 'voice' }]);
    expect(announced.at(-1)).toEqual(['CallResumed', 'agent1@lobby.test']);
  });

  it('when the resumed call cannot start, then the resume fails under the new call id; a call not held is not resumed', async () => {
    const { state, failures, teardown, feature, failStart } = holdResumeOf();
    failStart(new Error('no room'));
    void feature.hold('room/agent1');
    teardown.resolve();
    await feature.resume();
    expect(failures).toEqual([`${state.callId}: no room`]);

    const notHeld = holdResumeOf();
    await notHeld.feature.resume();
    expect(notHeld.api.holdCalls).toEqual([]);
  });
});
