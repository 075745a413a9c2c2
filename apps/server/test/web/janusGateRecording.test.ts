/**
 * When the gate starts a call's recording (services/media/recordingStart.ts): the agent's configure
 * carries `record` (its streams from their first packet), and the guest's recording waits for Janus's
 * `webrtcup` of the agent's subscriber handle, so that the recording's keyframe request does not make
 * Chromium drop the one of the agent's subscription. A fake Janus behind the real gate.
 */
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.ts';
import { createJanusTokens } from '../../src/services/media/janusTokens.ts';
import { createRecordingStarter, FALLBACK_MS, KEYFRAME_GAP_MS } from '../../src/services/media/recordingStart.ts';
import type { App } from '../../src/typebox.ts';
import { registerJanusGate } from '../../src/web/janusGate.ts';
import { gateSocket } from '../helpers/gateSocket.ts';

const tokens = createJanusTokens('test-secret-test-secret');
const ROOM = 'gab--Rec1';
const agentToken = tokens.mint(ROOM, 600, { role: 'agent', username: 'agent-18' }).token;
const guestToken = tokens.mint(ROOM, 600, { role: 'guest', username: 'gab' }).token;

describe('the gate and the recording of a call', () => {
  let janus: WebSocketServer;
  let app: App;
  let port: number;
  /** what reached the fake Janus, per connection */
  const received: Record<string, unknown>[] = [];
  let upstream: WebSocket | null = null;
  let armed = true;
  const starts: Array<{ kind: 'publishing' | 'subscribed'; room: string }> = [];

  beforeAll(async () => {
    janus = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: () => 'janus-protocol' });
    let ids = 100;
    janus.on('connection', (ws) => {
      upstream = ws;
      ws.on('message', (data: Buffer) => {
        const m = JSON.parse(data.toString()) as Record<string, unknown>;
        received.push(m);
        const reply = (extra: Record<string, unknown>) => ws.send(JSON.stringify({ transaction: m.transaction, ...extra }));
        if (m.janus === 'create' || m.janus === 'attach') reply({ janus: 'success', data: { id: ++ids } });
        else reply({ janus: 'ack' });
      });
    });
    await new Promise((r) => janus.once('listening', r));
    const janusPort = (janus.address() as AddressInfo).port;
    app = Fastify();
    registerJanusGate(
      app,
      { janusWsUrl: `ws://127.0.0.1:${janusPort}`, janusHttpUrl: `http://127.0.0.1:${janusPort}/janus` } as Config,
      tokens,
      {
        secretOf: () => Promise.resolve('room-secret'),
        recordArmed: () => Promise.resolve(armed),
        startRecording: () => Promise.resolve(),
      },
      { handles: () => Promise.resolve(null) },
      {
        agentPublishing: (room) => void starts.push({ kind: 'publishing', room }),
        agentSubscribed: (room) => void starts.push({ kind: 'subscribed', room }),
      },
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app.close();
    janus.close();
  });

  /** A browser's connection through the gate: sends a request, resolves with Janus's answer. */
  async function participant(token: string) {
    const socket = await gateSocket(port);
    const ask = (m: Record<string, unknown>) => socket.ask({ ...m, token });
    const session = ((await ask({ janus: 'create' })).data as { id: number }).id;
    const attach = async () => ((await ask({ janus: 'attach', session_id: session, plugin: 'janus.plugin.videoroom' })).data as { id: number }).id;
    const send = (handle: number, body: Record<string, unknown>) => ask({ janus: 'message', session_id: session, handle_id: handle, body });
    return { ws: socket.ws, session, attach, send, close: socket.close };
  }
  const lastBody = () => (received.at(-1)?.body ?? {}) as Record<string, unknown>;
  /** Janus tells the gate's upstream connection (the one that carries the participant's session) */
  const janusSays = (event: Record<string, unknown>) => upstream!.send(JSON.stringify(event));

  it('when the agent publishes in an armed room, then Janus gets its configure with record, the secret and its file name', async () => {
    armed = true;
    const agent = await participant(agentToken);
    const pub = await agent.attach();
    await agent.send(pub, { request: 'join', ptype: 'publisher', room: ROOM, pin: 'p', display: 'agent-18@demo' });
    await agent.send(pub, { request: 'configure', audio: true, video: true });
    expect(lastBody()).toMatchObject({ request: 'configure', record: true, secret: 'room-secret' });
    expect(String(lastBody().filename)).toContain(`${ROOM}_agent-18_agent_`);
    expect(starts).toContainEqual({ kind: 'publishing', room: ROOM });
    agent.close();
  });

  it('when the guest publishes, or the room is not armed, then no record goes with the configure', async () => {
    const guest = await participant(guestToken);
    const pub = await guest.attach();
    await guest.send(pub, { request: 'join', ptype: 'publisher', room: ROOM, pin: 'p', display: 'gab' });
    await guest.send(pub, { request: 'configure', audio: true, video: true });
    expect(lastBody()).toMatchObject({ secret: 'room-secret' });
    expect(lastBody()).not.toHaveProperty('record');
    guest.close();
    armed = false;
    starts.length = 0;
    const agent = await participant(agentToken);
    const agentPub = await agent.attach();
    await agent.send(agentPub, { request: 'join', ptype: 'publisher', room: ROOM, pin: 'p', display: 'agent-18@demo' });
    await agent.send(agentPub, { request: 'configure', audio: true, video: true });
    expect(lastBody()).not.toHaveProperty('record');
    expect(starts).toEqual([]);
    agent.close();
  });

  it("when Janus says the agent's subscription is up, then the guest's recording is due; a guest's subscription or the agent's publisher is not it", async () => {
    starts.length = 0;
    const agent = await participant(agentToken);
    const pub = await agent.attach();
    const sub = await agent.attach();
    await agent.send(pub, { request: 'join', ptype: 'publisher', room: ROOM, pin: 'p', display: 'agent-18@demo' });
    await agent.send(sub, { request: 'join', ptype: 'subscriber', room: ROOM, pin: 'p', streams: [{ feed: 1 }] });
    const seen = new Promise((r) => agent.ws.on('message', (d: Buffer) => String(d).includes(`"sender":${sub}`) && r(undefined)));
    janusSays({ janus: 'webrtcup', session_id: agent.session, sender: pub });
    janusSays({ janus: 'webrtcup', session_id: agent.session, sender: sub });
    await seen;
    expect(starts).toEqual([{ kind: 'subscribed', room: ROOM }]);
    agent.close();

    starts.length = 0;
    const guest = await participant(guestToken);
    const guestSub = await guest.attach();
    await guest.send(guestSub, { request: 'join', ptype: 'subscriber', room: ROOM, pin: 'p', streams: [{ feed: 2 }] });
    const guestSeen = new Promise((r) => guest.ws.on('message', (d: Buffer) => String(d).includes('webrtcup') && r(undefined)));
    janusSays({ janus: 'webrtcup', session_id: guest.session, sender: guestSub });
    await guestSeen;
    expect(starts).toEqual([]);
    guest.close();
  });
});

describe('recordingStart', () => {
  it("when the agent's subscription is up, then the recording starts a keyframe interval later; without it, a fallback after the agent's configure", async () => {
    const timers: Array<{ ms: number; run: () => void }> = [];
    const started: string[] = [];
    const starter = createRecordingStarter(
      (room) => Promise.resolve(void started.push(room)),
      () => undefined,
      (run, ms) => void timers.push({ run, ms }),
    );
    starter.agentPublishing('r1');
    starter.agentSubscribed('r1');
    expect(started).toEqual([]);
    expect(timers.map((t) => t.ms)).toEqual([FALLBACK_MS, KEYFRAME_GAP_MS]);
    // Chromium answers one keyframe request in 300 ms: the recording's comes after the subscription's
    expect(KEYFRAME_GAP_MS).toBeGreaterThan(300);
    for (const t of timers) t.run();
    await Promise.resolve();
    expect(started).toEqual(['r1', 'r1']); // startRecording claims once: the second is a no-op there
  });
});
