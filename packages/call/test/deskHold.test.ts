/**
 * Hold and resume, the agent's side (src/agent/holdResume.ts), on its own: a hold tells the room and marks
 * the call held; a resume asks the guest, and only after we asked is its CallResumed followed — into the new
 * call id's media room once the hold's teardown is over; a failed join ends the call.
 */
import { describe, expect, it } from 'vitest';
import { DeskHold } from '../src/agent/holdResume.ts';
import type { ActiveCall } from '../src/agent/deskSnapshot.ts';
import { initialCallStatus } from '../src/state/callStatus.ts';
import type { CallControl } from '../src/xmpp/stanzas.ts';
import { FakeClock, settle } from './helpers/fakes.ts';
import { heldRoom } from './helpers/testMedia.ts';
import type { SignallingPort } from '../src/room/ports.ts';

const CALL: ActiveCall = { callId: 'guest1--c1', room: 'room-1', guestNick: 'guest1', startedAt: 0, callType: 'voice', guestStatus: '' };

function holdOf() {
  const clock = new FakeClock();
  const state = { activeCall: CALL as ActiveCall | null, status: initialCallStatus(), phase: 'inCall' as string, muted: { audio: true, video: false } };
  const controls: Array<{ room: string; control: CallControl }> = [];
  const xmpp = { sendControl: (room: string, control: CallControl) => void controls.push({ room, control }) } as unknown as SignallingPort;
  const { room, teardown } = heldRoom(state);
  const joins: Array<[string, boolean, string]> = [];
  let join: () => Promise<void> = () => Promise.resolve();
  const failures: unknown[] = [];
  const hold = new DeskHold({
    clock,
    room,
    signalling: () => xmpp,
    read: () => state,
    write: (patch) => Object.assign(state, patch),
    joinMedia: (callId, video, guestNick) => (joins.push([callId, video, guestNick]), join()),
    failed: (error) => (failures.push(error), Promise.resolve()),
  });
  return { clock, state, controls, teardown, joins, failures, hold, failJoin: () => (join = () => Promise.reject(new Error('no room'))) };
}

describe('agent hold and resume', () => {
  it('when the agent holds, then the room hears the hold, the call is held and Paused, and our mute is cleared; a held call is not held again', () => {
    const { state, controls, hold } = holdOf();
    void hold.hold();
    expect(controls).toEqual([{ room: 'room-1', control: { action: 'hold', callId: 'guest1--c1' } }]);
    expect(state.activeCall?.held).toBe(true);
    expect(state.status).toMatchObject({ peerCall: 'Paused', OnHoldCount: 1 });
    expect(state.muted).toEqual({ audio: false, video: false });
    void hold.hold();
    expect(controls).toHaveLength(1);
  });

  it('when the agent resumes, then the guest is asked, and its CallResumed is followed into the new call once the hold\'s teardown is over', async () => {
    const { clock, state, controls, teardown, joins, hold } = holdOf();
    hold.followResumed('guest1--c2'); // not held: nothing to follow
    expect(state.activeCall?.callId).toBe('guest1--c1');
    void hold.hold();
    hold.followResumed('guest1--c2'); // we did not ask: nothing to follow
    expect(state.activeCall?.callId).toBe('guest1--c1');
    hold.resume();
    expect(controls.at(-1)).toEqual({ room: 'room-1', control: { action: 'resume', callId: 'guest1--c1' } });
    clock.advance(5000);
    hold.followResumed('guest1--c2');
    expect(state.phase).toBe('joining');
    expect(state.activeCall).toMatchObject({ callId: 'guest1--c2', held: false, startedAt: clock.now() });
    expect(state.status.peerCall).toBe('Resumed');
    await settle();
    expect(joins).toEqual([]);
    teardown.resolve();
    await settle();
    expect(joins).toEqual([['guest1--c2', false, 'guest1']]);
    hold.followResumed('guest1--c3'); // once per resume
    expect(state.activeCall?.callId).toBe('guest1--c2');
  });

  it('when following the guest fails, then the call ends with that error', async () => {
    const { teardown, failures, hold, failJoin } = holdOf();
    failJoin();
    void hold.hold();
    hold.resume();
    hold.followResumed('guest1--c2');
    teardown.resolve();
    await settle();
    expect(failures.map(String)).toEqual(['Error: no room']);
  });
});
