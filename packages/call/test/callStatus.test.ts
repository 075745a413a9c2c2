import { describe, expect, it } from 'vitest';
import {
  chatOpened,
  chatReceived,
  initialCallStatus,
  mutedChanged,
  peerJoined,
  peerLeft,
  peerPaused,
  remoteScreensChanged,
  isScreenDisplay,
  fileKind,
} from '../src/state/callStatus.ts';

const agent = { peerJID: 'agent@lobby.local', janusId: '11', username: 'agent' };

describe('call status', () => {
  it('when it starts, then it has the documented defaults', () => {
    const s = initialCallStatus();
    expect(s.callVolume).toBe(1);
    expect(s.peerCall).toBeNull();
    expect(s.OnHoldCount).toBe(0);
    expect(s.connection).toEqual({ janus: false, xmpp: false });
  });

  it('when a remote stream arrives, then the peer call is Resumed and the peer is main user', () => {
    const s = peerJoined(initialCallStatus(), agent, true);
    expect(s.peerCall).toBe('Resumed');
    expect(s.peers).toEqual([agent]);
    expect(s.mainUser).toBe(agent.peerJID);
    expect(s.streamsReady.remote).toBe(true);
    expect(s.peerVideo).toBe(true);
  });

  it('when the same feed arrives twice, then the peer is listed once', () => {
    const s = peerJoined(peerJoined(initialCallStatus(), agent, true), agent, true);
    expect(s.peers).toHaveLength(1);
  });

  it('when the call is paused, then the hold count goes up and peers and muted lists are cleared', () => {
    let s = peerJoined(initialCallStatus(), agent, true);
    s = mutedChanged(mutedChanged(s, agent.peerJID, 'audio', true), agent.peerJID, 'video', true);
    s = peerPaused(s);
    expect(s.peerCall).toBe('Paused');
    expect(s.OnHoldCount).toBe(1);
    expect(s.peers).toEqual([]);
    expect(s.mutedAudioJIDs).toEqual([]);
    expect(s.mutedVideoJIDs).toEqual([]);
    expect(peerPaused(s).OnHoldCount).toBe(2);
  });

  it('when the main peer leaves, then the next peer becomes main user', () => {
    const second = { peerJID: 'sup@lobby.local', janusId: '12', username: 'sup' };
    let s = peerJoined(peerJoined(initialCallStatus(), agent, true), second, true);
    s = peerLeft(s, '11');
    expect(s.mainUser).toBe('sup@lobby.local');
    expect(peerLeft(s, '12').streamsReady.remote).toBe(false);
  });

  it('when messages arrive with the chat closed, then they count as unread, newest first', () => {
    let s = chatReceived(initialCallStatus(), { id: '1', from: 'a', nick: 'a', body: 'hi', at: 1, mine: false });
    s = chatReceived(s, { id: '2', from: 'a', nick: 'a', body: 'there', at: 2, mine: false });
    s = chatReceived(s, { id: '3', from: 'me', nick: 'me', body: 'mine', at: 3, mine: true });
    expect(s.unreadMessages).toBe(2);
    expect(s.chatMessages.map((m) => m.id)).toEqual(['3', '2', '1']);
    expect(chatOpened(s, true).unreadMessages).toBe(0);
  });

  it('when the room echoes a message already listed, then it is not listed twice', () => {
    const entry = { id: '1', from: 'a', nick: 'a', body: 'hi', at: 1, mine: false };
    const s = chatReceived(chatReceived(initialCallStatus(), entry), entry);
    expect(s.chatMessages).toHaveLength(1);
    expect(s.unreadMessages).toBe(1);
  });

  it('when the chat is open, then arriving messages are not unread', () => {
    const s = chatReceived(chatOpened(initialCallStatus(), true), {
      id: '1', from: 'a', nick: 'a', body: 'hi', at: 1, mine: false,
    });
    expect(s.unreadMessages).toBe(0);
  });

  it('when a remote screen appears and goes, then it is shown large and back', () => {
    expect(remoteScreensChanged(initialCallStatus(), 1).isZoomed).toBe(true);
    expect(remoteScreensChanged(remoteScreensChanged(initialCallStatus(), 1), 0).isZoomed).toBe(false);
    expect(isScreenDisplay('agent@lobby.local-screen')).toBe(true);
    expect(isScreenDisplay('agent@lobby.local')).toBe(false);
  });

  it('when a file is named like an image, then it is previewed, otherwise linked', () => {
    expect(fileKind('photo.PNG', '/api/files/1')).toBe('image');
    expect(fileKind('terms.pdf', '/api/files/2')).toBe('document');
  });

  it('when a muted flag is set twice, then the JID is listed once, and unmuting removes it', () => {
    let s = mutedChanged(initialCallStatus(), 'x', 'audio', true);
    s = mutedChanged(s, 'x', 'audio', true);
    expect(s.mutedAudioJIDs).toEqual(['x']);
    expect(mutedChanged(s, 'x', 'audio', false).mutedAudioJIDs).toEqual([]);
  });
});
