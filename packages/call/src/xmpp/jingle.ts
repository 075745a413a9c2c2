/**
 * Jingle (XEP-0166 with RTP XEP-0167, ICE-UDP XEP-0176, DTLS-SRTP XEP-0320) as StanzaJS 12 implements
 * it, narrowed to what a p2p call needs (docs/protocol.md "p2p"). The p2p media transport
 * (media/p2pTransport.ts) talks to this port only, so the unit tests give it a fake.
 *
 * Facts of StanzaJS 12 this relies on: the session's `pc` is a plain RTCPeerConnection (tracks are read
 * from its `track` events, never from the legacy `streams` getter); its ICE servers are the manager's
 * `iceServers` when the session is made (the session start puts the XEP-0215 ones there); an incoming
 * session is built by the manager's `prepareSession`, so a peer we do not expect gets no peer connection.
 */
import type * as XMPP from 'stanza';

export type JingleCallEvent = 'ended' | 'hold' | 'resumed' | 'mute' | 'unmute';

/** One Jingle RTP session with one peer. */
export interface JingleCall {
  /** the peer's full JID */
  readonly peer: string;
  readonly pc: RTCPeerConnection;
  /**
   * initiator: sends session-initiate with the peer connection's offer. Resolves once the peer accepts
   * it; rejects when the session ends before that (the peer declined it) or no accept came within
   * ACCEPT_TIMEOUT_MS (an IQ error or timeout leaves a StanzaJS session pending without a word: the
   * console gone, its connection dropped), and the session is then ended.
   */
  start(): Promise<void>;
  /** responder: sends session-accept with the answer */
  accept(): Promise<void>;
  /** session-info <hold/> (XEP-0167 §7.3) */
  hold(): Promise<void>;
  /** session-info <mute/> / <unmute/> of one content (its name is the SDP mid) */
  mute(content: string): Promise<void>;
  unmute(content: string): Promise<void>;
  /** session-terminate */
  end(reason?: 'success' | 'decline'): void;
  /** the peer's session-info (`content` for mute/unmute) and the session's end */
  on(event: JingleCallEvent, listener: (content?: string) => void): void;
}

export interface JinglePort {
  /** our own full JID: the address a guest initiates its session toward */
  readonly self: string;
  /** a new session toward `peer` (full JID); `start()` sends it */
  call(peer: string): JingleCall;
  /**
   * Incoming sessions: those whose peer `accepts` are handed to `listener`; any other is declined before
   * a peer connection is made for it. Returns the function that stops listening (then all are declined).
   */
  onIncoming(accepts: (peer: string) => boolean, listener: (call: JingleCall) => void): () => void;
}

/** how long the initiator waits for the peer's session-accept (a console accepts at once once it published) */
export const ACCEPT_TIMEOUT_MS = 15_000;

type StanzaSession = XMPP.Jingle.MediaSession;
type Listeners = Map<JingleCallEvent, ((content?: string) => void)[]>;

/** The Jingle port of a connected StanzaJS client. */
export function stanzaJingle(client: XMPP.Agent): JinglePort {
  const manager = client.jingle;
  const listeners = new Map<string, Listeners>();
  let incoming: { accepts: (peer: string) => boolean; listener: (call: JingleCall) => void } | null = null;
  const expected = (peer: string) => !!incoming && incoming.accepts(peer);

  // a stranger's session-initiate gets a bare session (no peer connection), declined below
  const prepare = manager.prepareSession.bind(manager);
  manager.prepareSession = (options: Parameters<typeof prepare>[0], request: Parameters<typeof prepare>[1]) =>
    expected((options as { peerID: string }).peerID) ? prepare(options, request) : undefined;

  const emit = (session: { sid: string }, event: JingleCallEvent, content?: string) => {
    for (const listener of listeners.get(session.sid)?.get(event) ?? []) listener(content);
    if (event === 'ended') listeners.delete(session.sid);
  };
  /** initiated sessions not accepted yet, by sid: their start() settles on the accept or the end */
  const starting = new Map<string, (error?: Error) => void>();
  client.on('jingle:accepted', (session) => starting.get(session.sid)?.());
  client.on('jingle:terminated', (session, reason) => {
    starting.get(session.sid)?.(new Error(`session-initiate: ${reason?.condition ?? 'terminated'} before it was accepted`));
    emit(session, 'ended');
  });
  client.on('jingle:hold', (session) => emit(session, 'hold'));
  client.on('jingle:resumed', (session) => emit(session, 'resumed'));
  client.on('jingle:mute', (session, info) => emit(session, 'mute', info?.name));
  client.on('jingle:unmute', (session, info) => emit(session, 'unmute', info?.name));

  const wrap = (session: StanzaSession): JingleCall => {
    const own: Listeners = new Map();
    listeners.set(session.sid, own);
    return {
      peer: session.peerID,
      pc: session.pc,
      start: () =>
        new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => {
            settle(new Error(`session-initiate: no accept within ${ACCEPT_TIMEOUT_MS} ms`));
            if (session.state !== 'ended') session.end('timeout');
          }, ACCEPT_TIMEOUT_MS);
          const settle = (error?: Error) => {
            clearTimeout(timer);
            starting.delete(session.sid);
            if (error) reject(error);
            else resolve();
          };
          starting.set(session.sid, settle);
          void session.start();
        }),
      accept: () => session.accept(),
      hold: () => session.hold(),
      mute: (content) => session.mute(session.role, content),
      unmute: (content) => session.unmute(session.role, content),
      end: (reason = 'success') => {
        if (session.state !== 'ended') session.end(reason);
      },
      on(event, listener) {
        own.set(event, [...(own.get(event) ?? []), listener]);
      },
    };
  };

  client.on('jingle:incoming', (session) => {
    if (!expected(session.peerID) || !('pc' in session)) {
      console.warn(`jingle: declined a session from ${session.peerID}`);
      session.decline();
      return;
    }
    incoming?.listener(wrap(session as StanzaSession));
  });

  return {
    get self() {
      return client.jid;
    },
    call: (peer) => wrap(manager.createMediaSession(peer)),
    onIncoming(accepts, listener) {
      const entry = { accepts, listener };
      incoming = entry;
      return () => {
        if (incoming === entry) incoming = null;
      };
    },
  };
}
