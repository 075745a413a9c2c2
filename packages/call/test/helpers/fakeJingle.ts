/**
 * Fakes for the p2p transport (src/media/p2pTransport.ts): an in-process Jingle "network" linking the
 * participants' JinglePorts, and peer connections that carry what a real negotiation would — the
 * responder gets one transceiver per content of the offer (each receiving a track of the initiator's
 * kind), and each side's `track` events fire for the contents the other side sends. No SDP, no ICE.
 */
import type { JingleCall, JingleCallEvent, JinglePort } from '../../src/xmpp/jingle.ts';
import { FakeStream, FakeTrack } from './fakes.ts';

/** MediaStream as the transport uses it (Node has none): FakeStream with addTrack. */
export class FakeMediaStream extends FakeStream {
  constructor(tracks: FakeTrack[] = []) {
    super([...tracks]);
  }
  addTrack(track: FakeTrack): void {
    if (!this.tracks.includes(track)) this.tracks.push(track);
  }
}

export class FakeSender {
  track: FakeTrack | null = null;
  /** frames its encoder put out: each stats read finds a few more while it sends a camera that can be sent */
  framesEncoded = 0;
  getStats(): Promise<Map<string, { type: string; kind: string; framesEncoded: number }>> {
    if (this.track?.kind === 'video' && !this.track.unsendable) this.framesEncoded += 3;
    const kind = this.track?.kind ?? 'video';
    return Promise.resolve(new Map([['outbound', { type: 'outbound-rtp', kind, framesEncoded: this.framesEncoded }]]));
  }
  /** every track put on it (null: taken off), in order */
  readonly history: (FakeTrack | null)[] = [];
  replaceTrack(track: FakeTrack | null): Promise<void> {
    this.track = track;
    this.history.push(track);
    return Promise.resolve();
  }
}

export class FakeTransceiver {
  readonly sender = new FakeSender();
  readonly receiver: { track: FakeTrack };
  direction: 'sendrecv' | 'recvonly' = 'recvonly';
  mid: string | null = null;
  constructor(kind: 'audio' | 'video') {
    this.receiver = { track: new FakeTrack(kind) };
  }
}

export class FakePeerConnection {
  readonly transceivers: FakeTransceiver[] = [];
  iceConnectionState = 'new';
  readonly #listeners = new Map<string, ((event: unknown) => void)[]>();
  addEventListener(type: string, listener: (event: unknown) => void): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }
  dispatch(type: string, event: unknown): void {
    for (const listener of this.#listeners.get(type) ?? []) listener(event);
  }
  addTrack(track: FakeTrack): FakeSender {
    const free = this.transceivers.find((t) => t.receiver.track.kind === track.kind && !t.sender.track && t.direction === 'recvonly');
    const transceiver = free ?? this.#add(track.kind);
    transceiver.direction = 'sendrecv';
    void transceiver.sender.replaceTrack(track);
    return transceiver.sender;
  }
  addTransceiver(kind: 'audio' | 'video', init: { direction: 'sendrecv' }): FakeTransceiver {
    const transceiver = this.#add(kind);
    transceiver.direction = init.direction;
    return transceiver;
  }
  #add(kind: 'audio' | 'video'): FakeTransceiver {
    const transceiver = new FakeTransceiver(kind);
    this.transceivers.push(transceiver);
    return transceiver;
  }
  getTransceivers(): FakeTransceiver[] {
    return this.transceivers;
  }
  /** the negotiation is done: contents get their names, and tracks of the other side's sending contents arrive */
  negotiated(other: FakePeerConnection): void {
    this.transceivers.forEach((t, i) => (t.mid = String(i)));
    this.iceConnectionState = 'connected';
    this.transceivers.forEach((t, i) => {
      const remote = other.transceivers[i];
      if (remote?.direction === 'sendrecv' && remote.sender.track) this.dispatch('track', { track: t.receiver.track, transceiver: t });
    });
  }
}

class FakeCall implements JingleCall {
  readonly peer: string;
  readonly pc = new FakePeerConnection() as FakePeerConnection & RTCPeerConnection;
  other: FakeCall | null = null;
  ended = false;
  /** the session-info this side sent, in order (`mute:0`, `hold`…) */
  readonly sent: string[] = [];
  readonly #network: FakeJingleNetwork;
  readonly #self: string;
  readonly #listeners = new Map<JingleCallEvent, ((content?: string) => void)[]>();
  constructor(network: FakeJingleNetwork, self: string, peer: string) {
    this.#network = network;
    this.#self = self;
    this.peer = peer;
  }
  /** the initiator's start(), settled by the responder's accept or its decline (as xmpp/jingle.ts does) */
  #answered: { resolve: () => void; reject: (error: Error) => void } | null = null;
  start(): Promise<void> {
    if (this.#network.startError) return Promise.reject(this.#network.startError);
    return new Promise<void>((resolve, reject) => {
      this.#answered = { resolve, reject };
      this.#network.initiate(this, this.#self);
    });
  }
  /** the responder accepted (resolve) or the session ended before that (reject) */
  answered(error?: Error): void {
    const answered = this.#answered;
    this.#answered = null;
    if (error) answered?.reject(error);
    else answered?.resolve();
  }
  accept(): Promise<void> {
    const other = this.other;
    if (!other) return Promise.reject(new Error('no session to accept'));
    other.answered();
    queueMicrotask(() => {
      this.pc.negotiated(other.pc);
      other.pc.negotiated(this.pc);
    });
    return Promise.resolve();
  }
  #info(event: JingleCallEvent, content?: string): Promise<void> {
    this.sent.push(content === undefined ? event : `${event}:${content}`);
    const other = this.other;
    if (other && !this.ended) queueMicrotask(() => other.fire(event, content));
    return Promise.resolve();
  }
  hold(): Promise<void> {
    return this.#info('hold');
  }
  mute(content: string): Promise<void> {
    return this.#info('mute', content);
  }
  unmute(content: string): Promise<void> {
    return this.#info('unmute', content);
  }
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.answered(new Error('session-initiate: terminated before it was accepted'));
    const other = this.other;
    this.fire('ended');
    if (other && !other.ended) queueMicrotask(() => other.end());
  }
  fire(event: JingleCallEvent, content?: string): void {
    for (const listener of this.#listeners.get(event) ?? []) listener(content);
  }
  on(event: JingleCallEvent, listener: (content?: string) => void): void {
    this.#listeners.set(event, [...(this.#listeners.get(event) ?? []), listener]);
  }
}

/** The participants' Jingle ports on one "network"; `declined` lists the sessions refused, by initiator. */
export class FakeJingleNetwork {
  readonly #ports = new Map<string, { accepts: ((peer: string) => boolean) | null; listener: ((call: JingleCall) => void) | null }>();
  readonly declined: string[] = [];
  readonly calls: FakeCall[] = [];
  /** what every session-initiate fails with (a test sets it: the IQ answered with an error) */
  startError: Error | null = null;
  /** how many of the next session-initiates the responder's console declines (a test sets it) */
  declineNext = 0;

  /** The Jingle port of the session whose full JID is `self`. */
  port(self: string): JinglePort {
    const entry: { accepts: ((peer: string) => boolean) | null; listener: ((call: JingleCall) => void) | null } = { accepts: null, listener: null };
    this.#ports.set(self, entry);
    return {
      self,
      call: (peer) => {
        const call = new FakeCall(this, self, peer);
        this.calls.push(call);
        return call;
      },
      onIncoming: (accepts, listener) => {
        entry.accepts = accepts;
        entry.listener = listener;
        return () => {
          entry.accepts = null;
          entry.listener = null;
        };
      },
    };
  }

  /** A session-initiate: the responder sees one content per transceiver of the offer (tracks applied). */
  initiate(from: FakeCall, fromJid: string): void {
    queueMicrotask(() => {
      const to = this.#ports.get(from.peer);
      const refused = this.declineNext > 0;
      if (refused) this.declineNext--;
      if (refused || !to?.accepts?.(fromJid) || !to.listener) {
        this.declined.push(fromJid);
        from.end();
        return;
      }
      const answer = new FakeCall(this, from.peer, fromJid);
      for (const t of from.pc.transceivers) answer.pc.addTransceiver(t.receiver.track.kind, { direction: 'sendrecv' }).direction = 'recvonly';
      answer.other = from;
      from.other = answer;
      this.calls.push(answer);
      to.listener(answer);
    });
  }
}
