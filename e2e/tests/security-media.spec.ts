/**
 * Attacker suite, media plane (docs/security.md "Media plane"). While a real call
 * runs (guest and agent in Chromium), an attacker with a client that is not the product's (raw JSON over
 * `/janus` and `/janus-http`, the public paths):
 * - gets no session without a token, and no version or plugin list;
 * - with a valid token of its own (it is a guest with a call of its own), is refused every action of
 *   docs/security.md "Media plane" on the running call: join (old call-id pin or none), listparticipants,
 *   kick, edit (pin), enable_recording, rtp_forward, destroy; and creating a room, recorded where it chooses;
 * and the targeted call keeps its media (frames decoded and audio packets still increasing).
 * An agent's standby token (POST /api/console/media/standby) keeps a session and a videoroom
 * handle warm on the websocket, and does nothing else: no join (even with the room's pin), no trickle, no
 * claim of another agent's warm session, nothing over HTTP.
 */
import { expect, test } from '@playwright/test';
import { newCallId } from '@lobby/call';
import { addReport, BASE_URL, consoleLogin, consoleMediaStandby, DEMO_ADMIN, DEMO_AGENT, registerGuest } from '../support/api.ts';
import { closeAll } from '../support/journey.ts';
import { expectMediaFlowing } from '../support/media.ts';
import { janusHttp, RawJanusSocket, refused, type JanusAnswer } from '../support/rawJanus.ts';
import { guestCallsAndAgentAnswers, launchPair } from './incall-support.ts';

const JANUS_WS = `${BASE_URL.replace(/^http/, 'ws')}/janus`;
const JANUS_HTTP = `${BASE_URL}/janus-http`;

/** A guest of the same company with a call of its own: its media grant is a real, valid token. */
async function attackerWithOwnCall(): Promise<{ token: string; room: string; pin: string }> {
  const reg = await registerGuest();
  const callId = newCallId(reg.username);
  expect((await addReport(reg.access_token, { call_id: callId, company: 18, source: 'site' })).status).toBe('ok');
  const response = await fetch(`${BASE_URL}/api/call-report/media`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${reg.access_token}` },
    body: JSON.stringify({ call_id: callId }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  const { data } = (await response.json()) as { data: { token: string; room: string; pin: string } };
  return data;
}

/** A warm session as an agent's console keeps it: created and a videoroom handle attached with its standby token. */
async function warmSession(token: string): Promise<{ ws: RawJanusSocket; session_id: number; handle_id: number }> {
  const ws = await RawJanusSocket.open(JANUS_WS);
  const session = await ws.request({ janus: 'create', token });
  expect(session.janus, `create: ${JSON.stringify(session)}`).toBe('success');
  const session_id = session.data?.id ?? 0;
  const handle = await ws.request({ janus: 'attach', session_id, token, plugin: 'janus.plugin.videoroom' });
  expect(handle.janus, `attach: ${JSON.stringify(handle)}`).toBe('success');
  return { ws, session_id, handle_id: handle.data?.id ?? 0 };
}

test('when an attacker talks to Janus directly, then it gets no session without a token and no server details', async () => {
  const ws = await RawJanusSocket.open(JANUS_WS);
  try {
    expect(refused(await ws.request({ janus: 'create' })), 'websocket: create without a token').toBe(true);
    expect(refused(await ws.request({ janus: 'create', token: '9999999999,janus,janus.plugin.videoroom:forged' })), 'websocket: forged token').toBe(true);
    const info = await ws.request({ janus: 'info' });
    expect(info.janus, 'websocket: info').not.toBe('server_info');
  } finally {
    ws.close();
  }
  expect(refused(await janusHttp(JANUS_HTTP, { janus: 'create' })), 'HTTP: create without a token').toBe(true);
  const info = await fetch(`${JANUS_HTTP}/info`);
  const text = await info.text();
  expect(info.status, `GET /janus-http/info answered ${text}`).not.toBe(200);
  expect(text).not.toContain('server_info');
  expect(text).not.toContain('version');
});

test("when a guest with its own valid token acts on another call's room, then every action is refused and the call keeps its media", async ({}, testInfo) => {
  const { agent, guest } = await launchPair();
  try {
    // arrange: a real call, and an attacker with a session and a videoroom handle of its own
    const { callId } = await guestCallsAndAgentAnswers(agent, guest);
    const own = await attackerWithOwnCall();
    const ws = await RawJanusSocket.open(JANUS_WS);
    const results: Record<string, JanusAnswer> = {};
    try {
      const session = await ws.request({ janus: 'create', token: own.token });
      expect(session.janus, JSON.stringify(session)).toBe('success');
      const session_id = session.data?.id;
      const handle = await ws.request({ janus: 'attach', session_id, token: own.token, plugin: 'janus.plugin.videoroom' });
      expect(handle.janus, JSON.stringify(handle)).toBe('success');
      const handle_id = handle.data?.id;
      const send = (body: Record<string, unknown>) => ws.request({ janus: 'message', session_id, handle_id, token: own.token, body });

      // act: every action a participant may not take, against the running call's room
      const room = callId;
      results['join with the call-id pin'] = await send({ request: 'join', ptype: 'publisher', room, pin: callId.toLowerCase(), display: 'x' });
      results['join without a pin'] = await send({ request: 'join', ptype: 'subscriber', room, streams: [] });
      results.listparticipants = await send({ request: 'listparticipants', room });
      results.kick = await send({ request: 'kick', room, id: 'anyone' });
      results['edit the pin'] = await send({ request: 'edit', room, new_pin: 'mine' });
      results.enable_recording = await send({ request: 'enable_recording', room, record: true });
      results.rtp_forward = await send({ request: 'rtp_forward', room, publisher_id: 'anyone', host: '127.0.0.1', audio_port: 5004 });
      results.destroy = await send({ request: 'destroy', room });
      results['create a recorded room'] = await send({ request: 'create', room: `${room}x`, record: true, rec_dir: '/tmp/attacker' });
      results['record its own publishing'] = await send({ request: 'configure', record: true, filename: '/tmp/attacker/own' });
      results['enable_recording of its own room'] = await send({ request: 'enable_recording', room: own.room, record: true });
      results['destroy its own room'] = await send({ request: 'destroy', room: own.room });
      // the same over the HTTP API, with a session of its own there
      const httpSession = await janusHttp(JANUS_HTTP, { janus: 'create', token: own.token });
      expect(httpSession.janus, JSON.stringify(httpSession)).toBe('success');
      const httpUrl = `${JANUS_HTTP}/${httpSession.data?.id}`;
      const httpHandle = await janusHttp(httpUrl, { janus: 'attach', token: own.token, plugin: 'janus.plugin.videoroom' });
      const httpSend = (body: Record<string, unknown>) =>
        janusHttp(`${httpUrl}/${httpHandle.data?.id}`, { janus: 'message', token: own.token, body });
      results['HTTP listparticipants'] = await httpSend({ request: 'listparticipants', room });
      results['HTTP destroy'] = await httpSend({ request: 'destroy', room });
      // a session that is not the attacker's (the websocket one) named over HTTP
      results["HTTP on another connection's session"] = await janusHttp(`${JANUS_HTTP}/${session_id}`, { janus: 'keepalive', token: own.token });
    } finally {
      ws.close();
    }
    await testInfo.attach('janus answers', { body: JSON.stringify(results, null, 2), contentType: 'application/json' });

    // assert: every one refused
    for (const [what, answer] of Object.entries(results)) expect(refused(answer), `${what}: ${JSON.stringify(answer)}`).toBe(true);
    // assert: the call goes on, media flowing both ways
    await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
    await expect(agent.page.getByTestId('active-call')).toBeVisible();
    await expectMediaFlowing(guest.page, 'guest');
    await expectMediaFlowing(agent.page, 'agent');
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});

test("when an agent's standby token keeps a session warm, then it creates the session and attaches a videoroom handle, but a join (even with the room's pin) and a trickle are refused", async () => {
  const { token } = await consoleMediaStandby(await consoleLogin(DEMO_AGENT));
  // a real room with its real pin: the guest's own grant
  const call = await attackerWithOwnCall();
  const { ws, session_id, handle_id } = await warmSession(token);
  try {
    expect((await ws.request({ janus: 'keepalive', session_id, token })).janus, 'keepalive').toBe('ack');
    const send = (body: Record<string, unknown>) => ws.request({ janus: 'message', session_id, handle_id, token, body });
    const results: Record<string, JanusAnswer> = {
      'join with the pin': await send({ request: 'join', ptype: 'publisher', room: call.room, pin: call.pin, display: 'agent-18' }),
      'join without a pin': await send({ request: 'join', ptype: 'subscriber', room: call.room, streams: [] }),
      trickle: await ws.request({ janus: 'trickle', session_id, handle_id, token, candidate: { completed: true } }),
    };
    for (const [what, answer] of Object.entries(results)) {
      expect(answer.janus, `${what}: ${JSON.stringify(answer)}`).toBe('error');
      expect(answer.error?.reason, what).toMatch(/^token: a standby token cannot/);
    }
  } finally {
    ws.close();
  }
});

test("when another agent's standby token claims an agent's warm session, then it is refused; the agent's own claim on a new websocket passes", async () => {
  const agentToken = (await consoleMediaStandby(await consoleLogin(DEMO_AGENT))).token;
  const adminToken = (await consoleMediaStandby(await consoleLogin(DEMO_ADMIN))).token;
  const guest = await attackerWithOwnCall();
  const warm = await warmSession(agentToken);
  const thief = await RawJanusSocket.open(JANUS_WS);
  const owner = await RawJanusSocket.open(JANUS_WS);
  try {
    const byAdmin = await thief.request({ janus: 'claim', session_id: warm.session_id, token: adminToken });
    expect(byAdmin.janus, `the same company's other agent: ${JSON.stringify(byAdmin)}`).toBe('error');
    const byGuest = await thief.request({ janus: 'claim', session_id: warm.session_id, token: guest.token });
    expect(byGuest.janus, `a guest with a room token: ${JSON.stringify(byGuest)}`).toBe('error');
    // the thief's connection did not get the session either
    expect((await thief.request({ janus: 'keepalive', session_id: warm.session_id, token: adminToken })).janus).toBe('error');

    const byOwner = await owner.request({ janus: 'claim', session_id: warm.session_id, token: agentToken });
    expect(byOwner.janus, `the agent itself: ${JSON.stringify(byOwner)}`).toBe('success');
    // the session and its handle are the new connection's now
    expect((await owner.request({ janus: 'keepalive', session_id: warm.session_id, token: agentToken })).janus).toBe('ack');
    const detach = await owner.request({ janus: 'detach', session_id: warm.session_id, handle_id: warm.handle_id, token: agentToken });
    expect(detach.janus, JSON.stringify(detach)).toBe('success');
  } finally {
    warm.ws.close();
    thief.close();
    owner.close();
  }
});

test('when a standby token is used over /janus-http, then it is refused: the warm session is websocket-only', async () => {
  const { token } = await consoleMediaStandby(await consoleLogin(DEMO_AGENT));
  const create = await janusHttp(JANUS_HTTP, { janus: 'create', token });
  expect(create.janus, JSON.stringify(create)).toBe('error');
  expect(create.error?.reason).toBe('token: a standby token is for the websocket (/janus) only');
  // nor on a session it warmed on the websocket
  const { ws, session_id } = await warmSession(token);
  try {
    const keepalive = await janusHttp(`${JANUS_HTTP}/${session_id}`, { janus: 'keepalive', token });
    expect(keepalive.janus, JSON.stringify(keepalive)).toBe('error');
    const poll = await fetch(`${JANUS_HTTP}/${session_id}?token=${encodeURIComponent(token)}`);
    expect(poll.status).toBe(403);
  } finally {
    ws.close();
  }
});
