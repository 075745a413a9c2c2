import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkJanusRequest } from '../../src/services/media/janusPolicy.ts';
import { createJanusTokens } from '../../src/services/media/janusTokens.ts';
import { recordingName } from '../../src/services/media/recordingName.ts';
import { sessionOfParticipant, sessionOfRoom, toHandle } from '../../src/services/media/janusSessions.ts';

const SECRET = 'janus-token-secret-for-tests-0123456789';
const NOW = 1_800_000_000_000;
const tokens = createJanusTokens(SECRET, () => NOW);
const guest = { role: 'guest' as const, username: 'gab12' };
const token = tokens.mint('gab12--room', 600, guest).token;
const message = (body: Record<string, unknown>) => ({ janus: 'message', session_id: 1, handle_id: 2, transaction: 't', token, body });
const agent = { role: 'agent' as const, username: 'agent-18' };
const standby = tokens.mint(null, 600, agent).token;

describe('Janus tokens', () => {
  it('when a token is minted, then it is the Janus signed format with our items, HMAC-SHA1 as Janus checks it', () => {
    const [data, signature] = token.split(':') as [string, string];
    expect(data).toBe(`${NOW / 1000 + 600},janus,janus.plugin.videoroom,room=gab12--room,as=guest,user=gab12`);
    expect(signature).toBe(createHmac('sha1', SECRET).update(data).digest('base64'));
    expect(tokens.verify(token)).toEqual({ expiry: NOW / 1000 + 600, room: 'gab12--room', participant: guest });
  });

  it('when a token is forged, altered, expired or lists two rooms, then it does not verify', () => {
    const data = token.split(':')[0]!;
    expect(tokens.verify(`${data}:${createHmac('sha1', 'other').update(data).digest('base64')}`)).toBeNull();
    expect(tokens.verify(token.replace('room=gab12--room', 'room=gzz--room'))).toBeNull();
    expect(createJanusTokens(SECRET, () => NOW + 601_000).verify(token)).toBeNull();
    const twoRooms = `${NOW / 1000 + 60},janus,janus.plugin.videoroom,room=a,room=b`;
    expect(tokens.verify(`${twoRooms}:${createHmac('sha1', SECRET).update(twoRooms).digest('base64')}`)).toBeNull();
  });

  it("when an agent's standby token is minted, then it names the agent and no room, and is read after its expiry (verified only before)", () => {
    expect(standby.split(':')[0]).toBe(`${NOW / 1000 + 600},janus,janus.plugin.videoroom,as=agent,user=agent-18`);
    expect(tokens.verify(standby)).toEqual({ expiry: NOW / 1000 + 600, room: null, participant: agent });
    const later = createJanusTokens(SECRET, () => NOW + 601_000);
    expect(later.verify(standby)).toBeNull();
    expect(later.read(standby)).toEqual({ expiry: NOW / 1000 + 600, room: null, participant: agent });
    expect(later.read(token)).toMatchObject({ room: 'gab12--room', participant: guest });
    // read still checks the signature
    expect(createJanusTokens('another-secret-another-secret').read(standby)).toBeNull();
    expect(tokens.read(standby.replace('user=agent-18', 'user=agent-19'))).toBeNull();
  });

  it('when a room or a username could break the token framing, then no token is minted', () => {
    expect(() => tokens.mint('a,b', 60)).toThrow();
    expect(() => tokens.mint('a:b', 60)).toThrow();
    expect(() => tokens.mint('room', 60, { role: 'agent', username: 'x,as=guest' })).toThrow();
  });
});

describe('what the gate lets through to Janus', () => {
  it("when a participant joins, publishes, subscribes and leaves in its token's room, then every request passes", () => {
    for (const body of [
      { request: 'join', ptype: 'publisher', room: 'gab12--room', pin: 'p', display: 'gab12' },
      { request: 'configure', audio: true, video: true },
      { request: 'join', ptype: 'subscriber', room: 'gab12--room', pin: 'p', streams: [{ feed: 'x' }] },
      { request: 'start', room: 'gab12--room' },
      { request: 'subscribe', streams: [] },
      { request: 'leave' },
    ]) {
      expect(checkJanusRequest(tokens, message(body)).ok, JSON.stringify(body)).toBe(true);
    }
    for (const janus of ['create', 'attach', 'keepalive', 'trickle', 'detach', 'hangup', 'destroy']) {
      const m = { janus, token, transaction: 't', plugin: 'janus.plugin.videoroom' };
      expect(checkJanusRequest(tokens, m).ok, janus).toBe(true);
    }
  });

  it('when a request has no token, a forged one, or the server’s own (roomless) one, then it is refused', () => {
    expect(checkJanusRequest(tokens, { janus: 'create', transaction: 't' })).toMatchObject({ ok: false });
    expect(checkJanusRequest(tokens, { janus: 'create', token: 'x:y' })).toMatchObject({ ok: false });
    expect(checkJanusRequest(tokens, { janus: 'create', token: tokens.mint(null, 60).token })).toMatchObject({ ok: false });
  });

  it("when an agent's standby token keeps a session warm, then create, keepalive, attach (videoroom), detach, hangup, destroy and claim pass as standby", () => {
    for (const janus of ['create', 'keepalive', 'attach', 'detach', 'hangup', 'destroy', 'claim']) {
      const verdict = checkJanusRequest(tokens, { janus, token: standby, transaction: 't', session_id: 1, plugin: 'janus.plugin.videoroom' });
      expect(verdict, janus).toMatchObject({ ok: true, standby: true, claims: { room: null, participant: agent } });
    }
    expect(checkJanusRequest(tokens, message({ request: 'leave' }))).toMatchObject({ ok: true, standby: false });
  });

  it('when a standby token sends a message (a join, with or without the pin) or a trickle, then it is refused naming the token', () => {
    const asStandby = (m: Record<string, unknown>) => checkJanusRequest(tokens, { ...m, token: standby });
    for (const m of [
      message({ request: 'join', ptype: 'publisher', room: 'gab12--room', pin: 'p', display: 'agent-18' }),
      message({ request: 'join', ptype: 'subscriber', room: 'gab12--room', streams: [] }),
      message({ request: 'configure', audio: true }),
      { janus: 'trickle', session_id: 1, handle_id: 2, candidate: { completed: true } },
    ]) {
      const verdict = asStandby(m);
      expect(verdict.ok, JSON.stringify(m)).toBe(false);
      if (!verdict.ok) expect(verdict.reason).toMatch(/^token: a standby token cannot (message|trickle)/);
    }
    expect(asStandby({ janus: 'attach', session_id: 1, plugin: 'janus.plugin.streaming' })).toMatchObject({ ok: false, reason: expect.stringContaining('plugin') as string });
    expect(asStandby({ janus: 'claim' })).toMatchObject({ ok: false, reason: 'session_id: missing' });
  });

  it('when a token has no room and is a guest’s, or is the server’s own, then nothing passes with it', () => {
    const roomlessGuest = tokens.mint(null, 600, guest).token;
    for (const t of [roomlessGuest, tokens.mint(null, 600).token]) {
      for (const janus of ['create', 'keepalive', 'attach', 'claim']) {
        expect(checkJanusRequest(tokens, { janus, token: t, session_id: 1, plugin: 'janus.plugin.videoroom' }), janus).toMatchObject({ ok: false, reason: 'token: missing, invalid or expired' });
      }
    }
  });

  it('when info, a claim without a session or another plugin is asked, then it is refused', () => {
    expect(checkJanusRequest(tokens, { janus: 'info', token })).toMatchObject({ ok: false });
    expect(checkJanusRequest(tokens, { janus: 'claim', token })).toMatchObject({ ok: false, reason: 'session_id: missing' });
    // a claim naming a session passes the policy; the gate then asks Janus whose session it is
    expect(checkJanusRequest(tokens, { janus: 'claim', token, session_id: 1 })).toMatchObject({ ok: true });
    expect(checkJanusRequest(tokens, { janus: 'attach', token, plugin: 'janus.plugin.streaming' })).toMatchObject({ ok: false });
  });

  it("when a request is reserved to the server or names another room, then it is refused naming the field", () => {
    const refusals: [Record<string, unknown>, string][] = [
      [{ request: 'create', room: 'x', record: true, rec_dir: '/tmp' }, 'body.request'],
      [{ request: 'destroy', room: 'gab12--room' }, 'body.request'],
      [{ request: 'edit', room: 'gab12--room', new_pin: 'x' }, 'body.request'],
      [{ request: 'kick', room: 'gab12--room', id: 'x' }, 'body.request'],
      [{ request: 'moderate', room: 'gab12--room' }, 'body.request'],
      [{ request: 'enable_recording', room: 'gab12--room', record: true }, 'body.request'],
      [{ request: 'rtp_forward', room: 'gab12--room', host: '127.0.0.1' }, 'body.request'],
      [{ request: 'listparticipants', room: 'gab12--room' }, 'body.request'],
      [{ request: 'list' }, 'body.request'],
      [{ request: 'configure', record: true, filename: '/tmp/x' }, 'body.record'],
      [{ request: 'configure', secret: 's' }, 'body.secret'],
      [{ request: 'join', ptype: 'publisher', room: 'gother--room', pin: 'p' }, 'body.room'],
      [{ request: 'join', ptype: 'publisher', pin: 'p' }, 'body.room'],
    ];
    for (const [body, field] of refusals) {
      const verdict = checkJanusRequest(tokens, message(body));
      expect(verdict.ok, JSON.stringify(body)).toBe(false);
      if (!verdict.ok) expect(verdict.reason, JSON.stringify(body)).toContain(field);
    }
  });
});

describe('recording names', () => {
  it("when a publisher records, then its file is named in the documented shape after its token's identity", () => {
    expect(recordingName('gab12--x1', guest, false, 1700000000000)).toBe('gab12--x1_gab12_guest_1700000000000');
    expect(recordingName('gab12--x1', { role: 'agent', username: 'agent-18' }, true, 1)).toBe('gab12--x1_agent-18_agent-screen_1');
  });
});

describe('whose session a claim names (janusSessions)', () => {
  const info = (type: string, room: string | number, display = 'x') => ({ plugin_specific: { type, room, display } });
  it("when every handle of the session in a room is in the token's room, then the session is the token's", () => {
    const handles = [toHandle('1', info('publisher', 'gab12--room', 'gab12')), toHandle('2', info('subscriber', 'gab12--room')), toHandle('3', null)];
    expect(sessionOfRoom(handles, 'gab12--room')).toBe(true);
    expect(handles[0]).toEqual({ handle: '1', room: 'gab12--room', publisher: { screen: false }, token: null });
    expect(toHandle('4', info('publisher', 'gab12--room', 'gab12-screen')).publisher).toEqual({ screen: true });
  });

  it('when a handle is in another room, none is in a room, or Janus has no such session, then it is not', () => {
    expect(sessionOfRoom([toHandle('1', info('publisher', 'gab12--room')), toHandle('2', info('subscriber', 'other'))], 'gab12--room')).toBe(false);
    expect(sessionOfRoom([toHandle('1', null)], 'gab12--room')).toBe(false);
    expect(sessionOfRoom([], 'gab12--room')).toBe(false);
    expect(sessionOfRoom(null, 'gab12--room')).toBe(false);
  });

  it("when every handle was attached with a token of the participant (expired or not), then the session is the participant's", () => {
    const later = createJanusTokens(SECRET, () => NOW + 3600_000);
    const agentRoomToken = tokens.mint('gab12--room', 600, agent).token;
    const handles = [
      toHandle('1', { token: standby, plugin_specific: { type: 'publisher', room: 'gab12--room', display: 'agent-18' } }),
      toHandle('2', { token: agentRoomToken }),
    ];
    expect(handles[0]?.token).toBe(standby);
    expect(sessionOfParticipant(handles, agent, later)).toBe(true);
  });

  it("when a handle was attached with another participant's token, a foreign or no token, or there is no handle, then it is not the participant's", () => {
    const mine = toHandle('1', { token: standby });
    const otherAgent = toHandle('2', { token: tokens.mint(null, 600, { role: 'agent', username: 'admin-18' }).token });
    const guestOfRoom = toHandle('3', { token });
    const sameNameGuest = toHandle('4', { token: tokens.mint('gab12--room', 600, { role: 'guest', username: 'agent-18' }).token });
    const foreign = toHandle('5', { token: createJanusTokens('another-secret-another-secret').mint(null, 600, agent).token });
    for (const other of [otherAgent, guestOfRoom, sameNameGuest, foreign, toHandle('6', null)]) {
      expect(sessionOfParticipant([mine, other], agent, tokens), other.handle).toBe(false);
    }
    expect(sessionOfParticipant([], agent, tokens)).toBe(false);
    expect(sessionOfParticipant(null, agent, tokens)).toBe(false);
    expect(sessionOfParticipant([guestOfRoom], guest, tokens)).toBe(true);
  });
});
