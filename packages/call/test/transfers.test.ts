/**
 * Transfers, the agent's side (src/agent/transfers.ts), on their own: a call handed to us is listed and its
 * room joined; taking it enters the call with the guest's call type; our call handed over is left once the
 * new agent is in (its feed, or its p2p answer naming it) and not before; the targets and the hand-over asked.
 */
import { describe, expect, it } from 'vitest';
import type { IncomingTransfer } from '@lobby/contracts';
import type { OpenCallRoom } from '../src/api/consoleApi.ts';
import { Transfers, type TakenCall, type TransferView } from '../src/agent/transfers.ts';
import type { RoomPresence } from '../src/xmpp/session.ts';
import { ASSIGNMENT_ROOM, createFakeConsoleApi, fakeStream } from './helpers/fakes.ts';

const TRANSFER: IncomingTransfer = { id: 3, callId: 'guest1--c1', room: ASSIGNMENT_ROOM, guestUsername: 'guest1', fromName: 'Bob', fromJid: 'agent2@lobby.test' };

function transfersOf(view: Partial<TransferView> = {}) {
  const api = createFakeConsoleApi('agent1@lobby.test');
  const state: TransferView = { jid: 'agent1@lobby.test', transfers: [], activeCall: null, remoteFeeds: [], ...view };
  const joined: OpenCallRoom[] = [];
  const entered: TakenCall[] = [];
  let handedOver = 0;
  const guestPresence = { lobby: { userType: 'guest', appointmentID: '', callType: 'voice' }, statusText: 'InCall|agent2@lobby.test|guest1--c1' } as RoomPresence;
  const transfers = new Transfers({
    api,
    read: () => state,
    write: (patch) => Object.assign(state, patch),
    joinRoom: (room) => (joined.push(room), Promise.resolve()),
    presenceOf: (room, nick) => (room === ASSIGNMENT_ROOM && nick === 'guest1' ? guestPresence : null),
    handedOver: () => void handedOver++,
    enter: (call) => (entered.push(call), Promise.resolve()),
  });
  return { api, state, joined, entered, handed: () => handedOver, transfers };
}

describe('transfers, the agent\'s side', () => {
  it('when a call is handed to us, then it is listed once and its room joined; taking it enters the call as a voice call and unlists it', async () => {
    const { api, state, joined, entered, transfers } = transfersOf();
    api.events.transfer(TRANSFER); // the fake API keeps it for acceptTransfer
    transfers.onTransfer(TRANSFER);
    transfers.onTransfer(TRANSFER);
    expect(state.transfers).toEqual([TRANSFER]);
    expect(joined).toEqual([
      { room: ASSIGNMENT_ROOM, assignmentId: 0, guestUsername: 'guest1', callId: 'guest1--c1' },
      { room: ASSIGNMENT_ROOM, assignmentId: 0, guestUsername: 'guest1', callId: 'guest1--c1' },
    ]);
    await transfers.accept(3);
    expect(state.transfers).toEqual([]);
    expect(entered).toEqual([
      { callId: 'guest1--c1', room: ASSIGNMENT_ROOM, guestNick: 'guest1', callType: 'voice', guestStatus: 'InCall|agent2@lobby.test|guest1--c1', transferred: true },
    ]);
    await expect(transfers.accept(3)).rejects.toThrow('no such transfer');
  });

  it('when we are in a call, then another is not taken', async () => {
    const { transfers } = transfersOf({ transfers: [TRANSFER], activeCall: { callId: 'guest9--c9' } });
    await expect(transfers.accept(3)).rejects.toThrow('already in a call');
  });

  it('when our call is taken by another agent, then we leave once its feed reaches us, not before; a taker that is us, or another call, changes nothing', () => {
    const { state, handed, transfers } = transfersOf({ transfers: [TRANSFER], activeCall: { callId: 'guest1--c1' } });
    transfers.onTransferAccepted({ id: 3, callId: 'guest1--c1', toJid: 'agent1@lobby.test' }); // us
    transfers.onTransferAccepted({ id: 4, callId: 'guest5--c5', toJid: 'agent3@lobby.test' }); // another call
    transfers.handOverIfArrived();
    expect(handed()).toBe(0);
    expect(state.transfers).toEqual([]);
    transfers.onTransferAccepted({ id: 5, callId: 'guest1--c1', toJid: 'agent3@lobby.test' });
    expect(handed()).toBe(0);
    state.remoteFeeds = [{ feedId: 'f3', display: 'agent3@lobby.test', stream: fakeStream(true) }];
    transfers.handOverIfArrived();
    transfers.handOverIfArrived();
    expect(handed()).toBe(1);
  });

  it('when a p2p taker answers our call, then we leave; a hand-over cancelled (the call ended) leaves nothing to do', () => {
    const { handed, transfers } = transfersOf({ activeCall: { callId: 'guest1--c1' } });
    transfers.onTransferAccepted({ id: 5, callId: 'guest1--c1', toJid: 'Agent3@lobby.test' });
    transfers.onAnswer('guest1--c2', 'agent3@lobby.test/console-1'); // another call id
    transfers.onAnswer('guest1--c1', 'agent4@lobby.test/console-1'); // another agent (a supervisor)
    expect(handed()).toBe(0);
    transfers.onAnswer('guest1--c1', 'agent3@lobby.test/console-1');
    expect(handed()).toBe(1);

    const cancelled = transfersOf({ activeCall: { callId: 'guest1--c1' } });
    cancelled.transfers.onTransferAccepted({ id: 5, callId: 'guest1--c1', toJid: 'agent3@lobby.test' });
    cancelled.transfers.cancelHandOver();
    cancelled.transfers.onAnswer('guest1--c1', 'agent3@lobby.test/console-1');
    expect(cancelled.handed()).toBe(0);
  });

  it('when we hand our call over, then the server is asked for it; without a call it is refused; without targets in the API, none are listed', async () => {
    const { api, transfers } = transfersOf({ activeCall: { callId: 'guest1--c1' } });
    await transfers.transfer({ toUserId: 12 });
    expect(api.transfers).toEqual([{ callId: 'guest1--c1', to: { toUserId: 12 } }]);
    expect(await transfers.targets()).toEqual({ agents: [], assignments: [] });
    await expect(transfersOf().transfers.transfer({ assignmentId: 1 })).rejects.toThrow('not in a call');
  });
});
