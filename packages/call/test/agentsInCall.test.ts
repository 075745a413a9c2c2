/**
 * The agents of the guest's call (src/guest/agentsInCall.ts) on their own: names and pictures from room
 * presence reaching the peers, who held the call, and the agents leaving the media room on the fake clock —
 * a transfer's new agent named, the call over AGENT_LEFT_GRACE_MS after the last one left (not while held,
 * not while another is in the room).
 */
import { describe, expect, it } from 'vitest';
import { AGENT_LEFT_GRACE_MS, AgentsInCall } from '../src/guest/agentsInCall.ts';
import { initialCallStatus, peerJoined, type CallStatus } from '../src/state/callStatus.ts';
import type { RoomPresence } from '../src/xmpp/session.ts';
import { decodePresenceStatus } from '../src/presence.ts';
import type { RemoteFeed } from '../src/media/mediaSession.ts';
import { FakeClock, fakeStream } from './helpers/fakes.ts';
import { TestMedia } from './helpers/testMedia.ts';

const ROOM = 'assignment-1@conference.lobby.test';

function agentPresence(nick: string, lobby: RoomPresence['lobby'], available = true): RoomPresence {
  return { room: ROOM, nick, jid: `${nick}@lobby.test/console-1`, available, self: false, statusText: '', info: decodePresenceStatus(''), lobby, affiliation: null, role: null };
}

function feed(display: string, feedId: string): RemoteFeed {
  return { feedId, display, stream: fakeStream(true) };
}

function agentsOf(start: Partial<{ phase: string; status: CallStatus }> = {}) {
  const clock = new FakeClock();
  const state = { phase: 'ongoing', status: initialCallStatus(), ...start };
  const current = new Set<unknown>();
  const events = { firstChanged: 0, allLeft: 0 };
  const agents = new AgentsInCall({
    clock,
    read: () => state,
    setStatus: (update) => (state.status = update(state.status)),
    isCurrent: (media) => current.has(media),
    firstAgentChanged: () => events.firstChanged++,
    allLeft: () => events.allLeft++,
  });
  const join = (display: string, feedId: string) => {
    state.status = peerJoined(state.status, agents.peerOf(feed(display, feedId)), true);
  };
  return { clock, state, current, events, agents, join };
}

/** agent1 in the call: its feed followed in the current media room. */
function agentInRoom() {
  const call = agentsOf();
  const media = new TestMedia();
  call.current.add(media.transport);
  call.agents.follow(media.transport);
  media.fire('publisherJoined', { feedId: 'feed-1', display: 'agent1@lobby.test' });
  call.join('agent1@lobby.test', 'feed-1');
  return { ...call, media };
}

describe('the agents of the guest\'s call', () => {
  it('when an agent\'s presence names it and shows a picture, then its feed\'s peer has them, and a later name reaches the peer shown', () => {
    const { state, agents, join } = agentsOf();
    agents.onRoomPresence(agentPresence('agent1', { userType: 'agent', appointmentID: '', name: 'Ann', profileImageUrl: 'https://img.test/a.png' }));
    join('agent1@lobby.test', 'feed-1');
    expect(state.status.peers).toEqual([
      { peerJID: 'agent1@lobby.test', janusId: 'feed-1', username: 'agent1', name: 'Ann', profileImageUrl: 'https://img.test/a.png' },
    ]);
    agents.onRoomPresence(agentPresence('agent1', { userType: 'agent', appointmentID: '', name: 'Anna' }));
    expect(state.status.peers[0]).toEqual({ peerJID: 'agent1@lobby.test', janusId: 'feed-1', username: 'agent1', name: 'Anna' });
    // a guest's presence (another tab) names no agent
    agents.onRoomPresence(agentPresence('guest1', { userType: 'guest', appointmentID: '', name: 'Eve' }));
    expect(state.status.peers[0]?.name).toBe('Anna');
  });

  it('when an agent holds, then the holder is its room occupant, else the peer of that nick, else the last agent seen', () => {
    const { agents, join } = agentsOf();
    expect(agents.holder(`${ROOM}/agent1`)).toBe('');
    join('agent2@lobby.test', 'feed-2');
    expect(agents.holder(`${ROOM}/agent2`)).toBe('agent2@lobby.test');
    expect(agents.holder(`${ROOM}/someone`)).toBe('agent2@lobby.test');
    agents.onRoomPresence(agentPresence('agent3', { userType: 'agent', appointmentID: '' }));
    expect(agents.holder(`${ROOM}/agent3`)).toBe('agent3@lobby.test');
  });

  it('when the last agent leaves the media room, then the call ends after the grace time, unless it was held meanwhile', () => {
    const { clock, state, events, join, media } = agentInRoom();
    media.fire('publisherLeft', { feedId: 'feed-1', display: 'agent1@lobby.test' });
    expect(state.status.peers).toEqual([]);
    clock.advance(AGENT_LEFT_GRACE_MS - 1);
    expect(events.allLeft).toBe(0);
    clock.advance(1);
    expect(events.allLeft).toBe(1);

    media.fire('publisherJoined', { feedId: 'feed-2', display: 'agent1@lobby.test' });
    join('agent1@lobby.test', 'feed-2');
    media.fire('publisherLeft', { feedId: 'feed-2', display: 'agent1@lobby.test' });
    state.status = { ...state.status, peerCall: 'Paused' }; // the hold control came late
    clock.advance(AGENT_LEFT_GRACE_MS);
    expect(events.allLeft).toBe(1);
  });

  it('when the first agent leaves while a transfer\'s agent is in the room, then the new one is named and the call goes on; a held or ended call\'s media counts no more', () => {
    const { clock, state, current, events, agents, join, media } = agentInRoom();
    media.fire('publisherJoined', { feedId: 'feed-2', display: 'agent2@lobby.test' }); // its media not here yet
    media.fire('publisherLeft', { feedId: 'feed-1', display: 'agent1@lobby.test' });
    clock.advance(AGENT_LEFT_GRACE_MS);
    expect(events.allLeft).toBe(0);
    join('agent2@lobby.test', 'feed-2');
    join('agent3@lobby.test', 'feed-3');
    media.fire('publisherLeft', { feedId: 'feed-2', display: 'agent2@lobby.test' });
    expect(state.status.peers.map((p) => p.peerJID)).toEqual(['agent3@lobby.test']);
    expect(events.firstChanged).toBe(1);
    expect(agents.holder(`${ROOM}/nobody`)).toBe('agent3@lobby.test');

    current.clear();
    media.fire('publisherLeft', { feedId: 'feed-3', display: 'agent3@lobby.test' });
    expect(state.status.peers.map((p) => p.peerJID)).toEqual(['agent3@lobby.test']);
  });
});
