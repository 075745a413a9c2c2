/**
 * An XMPP session over a websocket (StanzaJS, loaded on first use so the first screen stays small).
 *
 * The password is a short-lived JWT minted by the Lobby server; ejabberd checks it through SASL PLAIN,
 * so every other mechanism is disabled on the client (StanzaJS would prefer X-OAUTH2 or SCRAM).
 */
import type * as XMPP from 'stanza';
import { Emitter } from '../emitter.ts';
import { decodePresenceStatus, type LobbyPresenceElement, type PresenceInfo } from '../presence.ts';
import { isCallControl, lobbyStanzas, type CallControl } from './stanzas.ts';
import { normalizeIceServers } from './iceServers.ts';
import { stanzaJingle, type JinglePort } from './jingle.ts';

const NON_PLAIN_MECHANISMS = [
  'SCRAM-SHA-256-PLUS',
  'SCRAM-SHA-256',
  'SCRAM-SHA-1-PLUS',
  'SCRAM-SHA-1',
  'DIGEST-MD5',
  'X-OAUTH2',
  'OAUTHBEARER',
];

export interface XmppSessionOptions {
  /** e.g. ws://localhost:8080/xmpp-websocket (wss:// in production) */
  wsUrl: string;
  jid: string;
  credential: string;
  /** 'web' for the guest (docs/protocol.md "Constants") */
  resource?: string;
  /**
   * Auto reconnect (on by default) waits 2^attempts + random seconds before each attempt, capped at this
   * many seconds (10 for the guest; StanzaJS's default 32).
   */
  maxReconnectBackoff?: number;
  /** default true; each attempt is told as 'reconnecting', success as 'reconnected' */
  autoReconnect?: boolean;
  /**
   * A fresh credential for a reconnection: the first one is a short-lived JWT (an hour), and a console
   * stays open all day, so ejabberd restarted in the afternoon would refuse it. Without it (or when it
   * fails) the first credential is tried.
   */
  refreshCredential?: () => Promise<string>;
}

/** A room member's presence as the engine sees it. */
export interface RoomPresence {
  room: string;
  nick: string;
  /** real JID when the room shows it to us */
  jid: string | null;
  available: boolean;
  statusText: string;
  info: PresenceInfo;
  lobby: Partial<LobbyPresenceElement> | null;
  self: boolean;
  affiliation: string | null;
  role: string | null;
}

export interface ControlMessage extends CallControl {
  room: string;
  from: string;
}

export interface ChatMessage {
  room: string;
  /** `room@service/nick` */
  from: string;
  nick: string;
  body: string;
  id: string | undefined;
  at: number;
  /** an attached file (XEP-0066 out-of-band data): an uploaded file's URL */
  file: { url: string; name: string } | null;
  /** true for room history replayed on join (XEP-0203 delay) */
  delayed: boolean;
}

/** What a chat message carries: text, and optionally an uploaded file's link. */
export interface OutgoingChat {
  body: string;
  file?: { url: string; name: string };
  /** a message sent again keeps its id (room/chatOutbox.ts); a new one gets newChatId() */
  id?: string;
}

/** A chat message's id: the room echoes it, and receivers keep one message per id. */
export function newChatId(): string {
  return `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

export type XmppEvents = {
  connected: void;
  disconnected: void;
  /**
   * The connection dropped and is tried again (auto reconnect): `attempt` counts from 1. The engines
   * show "reconnecting"; rooms are not rejoined by the session (the engines do that on 'reconnected').
   */
  reconnecting: { attempt: number };
  /** A new stream after a drop, with the session start done again (roster, presence, ICE, carbons). */
  reconnected: void;
  roomPresence: RoomPresence;
  control: ControlMessage;
  chat: ChatMessage;
  error: Error;
};

export class XmppSession extends Emitter<XmppEvents> {
  readonly options: XmppSessionOptions;
  #client: XMPP.Agent | null = null;
  #iceServers: RTCIceServer[] = [];
  #jingle: JinglePort | null = null;
  connected = false;

  constructor(options: XmppSessionOptions) {
    super();
    this.options = options;
  }

  get client(): XMPP.Agent {
    if (!this.#client) throw new Error('XMPP session not connected');
    return this.#client;
  }

  /** Jingle sessions with the other side of a p2p call (docs/protocol.md "p2p"); null before connect(). */
  get jingle(): JinglePort | null {
    return this.#jingle;
  }

  /** ICE servers discovered through XEP-0215 (coturn credentials). */
  get iceServers(): RTCIceServer[] {
    return this.#iceServers;
  }

  /**
   * Connects and runs the session start (docs/protocol.md): roster, initial presence, ICE discovery,
   * carbons. Resolves once all of that is done.
   */
  async connect(timeoutMs = 20_000): Promise<void> {
    const { createClient } = await import('stanza');
    const client = createClient(clientConfig(this.options));
    this.#freshCredentials(client);
    client.use(lobbyStanzas);
    for (const mechanism of NON_PLAIN_MECHANISMS) client.sasl.disable(mechanism);
    this.#client = client;
    this.#jingle = stanzaJingle(client);
    this.#wire(client);

    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error('XMPP connection timed out')), timeoutMs);
      const offs: (() => void)[] = [];
      const finish = (error?: Error) => {
        clearTimeout(timer);
        offs.forEach((off) => off());
        if (error) reject(error);
        else resolve();
      };
      const started = () => finish();
      const failed = () => finish(new Error('XMPP authentication failed'));
      const gone = () => finish(new Error('XMPP disconnected while connecting'));
      client.on('session:started', started);
      client.on('auth:failed', failed);
      client.on('disconnected', gone);
      offs.push(
        () => client.off('session:started', started),
        () => client.off('auth:failed', failed),
        () => client.off('disconnected', gone),
      );
      client.connect();
    }).catch((error: unknown) => {
      // no session came: StanzaJS must not go on reconnecting in the background
      void Promise.resolve(client.disconnect()).catch(() => undefined);
      throw error;
    });

    await this.#sessionStart(client);
    this.#started = true;
    this.emit('connected', undefined);
  }

  /** the first session started: later `session:started` are reconnections */
  #started = false;
  /** disconnect() was asked: no reconnection is told */
  #leaving = false;

  /** Reconnections authenticate with a credential asked for then (options.refreshCredential). */
  #freshCredentials(client: XMPP.Agent): void {
    const refresh = this.options.refreshCredential;
    if (!refresh) return;
    const sasl = client as unknown as { getCredentials(): Promise<{ password?: string }> };
    const configured = sasl.getCredentials.bind(client);
    sasl.getCredentials = async () => {
      const credentials = await configured();
      if (!this.#started) return credentials;
      const password = await refresh().catch(() => null);
      return password ? { ...credentials, password } : credentials;
    };
  }

  /** The session start (docs/protocol.md "Session start"): roster, presence, ICE discovery, carbons. */
  async #sessionStart(client: XMPP.Agent): Promise<void> {
    await client.getRoster();
    client.sendPresence();
    // StanzaJS's discoverICEServers() swallows errors and returns []; the servers land in jingle.
    await client.discoverICEServers().catch(() => []);
    this.#iceServers = normalizeIceServers(
      (client.jingle as unknown as { iceServers?: RTCIceServer[] }).iceServers ?? [],
    );
    // Jingle sessions take the manager's list: only ours (coturn), never StanzaJS's public STUN default,
    // and without the `?transport=` on STUN URIs that makes the browser refuse the peer connection.
    // A copy: StanzaJS pushes what it discovers again after a reconnection into its own list
    // (addICEServer), which must never reach the list the media server's peer connections use (the
    // guest's subscription to the agent failed after an ejabberd restart: fault-xmpp).
    client.jingle.iceServers = [...this.#iceServers];
    await client.enableCarbons().catch(() => undefined);
    this.connected = true;
  }

  #wire(client: XMPP.Agent): void {
    client.on('disconnected', () => {
      const wasConnected = this.connected;
      this.connected = false;
      if (wasConnected) this.emit('disconnected', undefined);
      // StanzaJS schedules the next attempt itself (its backoff) unless we are leaving
      if (this.#started && !this.#leaving && (this.options.autoReconnect ?? true)) {
        this.emit('reconnecting', { attempt: (client as unknown as { reconnectAttempts?: number }).reconnectAttempts ?? 1 });
      }
    });
    client.on('session:started', () => {
      if (!this.#started || this.#leaving) return;
      void this.#sessionStart(client).then(
        () => this.emit('reconnected', undefined),
        (error: unknown) => this.emit('error', error instanceof Error ? error : new Error(String(error))),
      );
    });
    const onPresence = (available: boolean) => (pres: XMPP.Stanzas.ReceivedMUCPresence) => {
      const [room = '', nick = ''] = splitRoomJid(pres.from);
      const statusText = pres.status ?? '';
      const item = pres.muc?.jid;
      this.emit('roomPresence', {
        room,
        nick,
        jid: item ? String(item) : null,
        available: available && pres.type !== 'unavailable',
        statusText,
        info: decodePresenceStatus(statusText),
        lobby: pres.lobby ?? null,
        self: !!pres.muc?.statusCodes?.includes('110'),
        affiliation: pres.muc?.affiliation ?? null,
        role: pres.muc?.role ?? null,
      });
    };
    client.on('muc:available', onPresence(true));
    client.on('muc:unavailable', onPresence(false));
    client.on('message', (msg) => {
      const from = msg.from ?? '';
      const [room = ''] = splitRoomJid(from);
      if (isCallControl(msg.lobbyCall)) {
        this.emit('control', { ...msg.lobbyCall, room, from });
      } else if ((msg.body || msg.links?.length) && msg.type === 'groupchat') {
        const [, nick = ''] = splitRoomJid(from);
        const link = msg.links?.find((l) => !!l.url);
        this.emit('chat', {
          room,
          from,
          nick,
          body: msg.body ?? '',
          id: msg.id,
          at: msg.delay?.timestamp ? new Date(msg.delay.timestamp).getTime() : Date.now(),
          file: link?.url ? { url: link.url, name: link.description ?? '' } : null,
          delayed: !!msg.delay,
        });
      }
    });
  }

  /** Joins a room with a status and Lobby element; resolves on our own presence echo. */
  async joinRoom(room: string, nick: string, status: string, lobby: LobbyPresenceElement): Promise<void> {
    await this.client.joinRoom(room, nick, { status, lobby });
  }

  /** Updates our presence in a room (e.g. OpenCall → InCall). An empty status clears it. */
  setRoomPresence(room: string, nick: string, status: string, lobby: LobbyPresenceElement): void {
    this.client.sendPresence({ to: `${room}/${nick}`, ...(status ? { status } : {}), lobby });
  }

  async leaveRoom(room: string, nick: string): Promise<void> {
    await this.client.leaveRoom(room, nick).catch(() => undefined);
  }

  /**
   * XEP-0410 self-ping: an IQ ping to our own occupant JID, which ejabberd's room answers itself. A result,
   * or an occupant's client that does not answer pings (service-unavailable, feature-not-implemented),
   * means we are in the room; not-acceptable (not an occupant), item-not-found (no such occupant), any
   * other error or no answer in `timeoutMs` means we are not (docs/protocol.md "Self-ping").
   */
  async pingSelf(room: string, nick: string, timeoutMs: number): Promise<boolean> {
    let cancel = () => {};
    const late = new Promise<never>((_, reject) => {
      const timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      cancel = () => clearTimeout(timer);
    });
    try {
      await Promise.race([this.client.ping(`${room}/${nick}`), late]);
      return true;
    } catch (error) {
      const condition = (error as { error?: { condition?: string } } | null)?.error?.condition;
      return condition === 'service-unavailable' || condition === 'feature-not-implemented';
    } finally {
      cancel();
    }
  }

  sendControl(room: string, control: CallControl): void {
    this.client.sendMessage({ to: room, type: 'groupchat', lobbyCall: control });
  }

  /** A chat message to everybody in the room; the room echoes it back to us (that is the delivery). */
  sendChat(room: string, message: OutgoingChat | string): string {
    const chat: OutgoingChat = typeof message === 'string' ? { body: message } : message;
    const id = chat.id ?? newChatId();
    this.client.sendMessage({
      to: room,
      type: 'groupchat',
      id,
      body: chat.body,
      ...(chat.file ? { links: [{ url: chat.file.url, description: chat.file.name }] } : {}),
    });
    return id;
  }

  /** Sends empty presence (docs/protocol.md "Session start") and closes the stream. */
  async disconnect(): Promise<void> {
    const client = this.#client;
    if (!client) return;
    this.#leaving = true;
    this.connected = false;
    try {
      client.sendPresence({ type: 'unavailable' });
    } catch {
      // already closed
    }
    await Promise.resolve(client.disconnect()).catch(() => undefined);
  }
}

/**
 * StanzaJS's configuration ("Constants"): auto reconnect on, waiting 2^attempts + random seconds before
 * each attempt, capped at maxReconnectBackoff (StanzaJS's Client does the waiting; its default cap is 32);
 * stream resumption off; IQ requests time out after 15 s. StanzaJS answers an IQ get or set that nothing
 * handles with service-unavailable (cancel), and one with a wrong payload count with bad-request (modify),
 * as docs/protocol.md "Constants" says (test/xmppIq.test.ts).
 */
export function clientConfig(options: XmppSessionOptions): XMPP.AgentConfig {
  return {
    jid: options.jid,
    password: options.credential,
    resource: options.resource ?? 'web',
    transports: { websocket: options.wsUrl, bosh: false },
    autoReconnect: options.autoReconnect ?? true,
    ...(options.maxReconnectBackoff !== undefined ? { maxReconnectBackoff: options.maxReconnectBackoff } : {}),
    useStreamManagement: false,
    timeout: 15,
    // StanzaJS adds a public STUN server by default; this machine reaches none.
    jingle: { iceServers: [] } as never,
  };
}

/** `room@service/nick` → [`room@service`, `nick`] */
export function splitRoomJid(jid: string): [string, string] {
  const slash = jid.indexOf('/');
  return slash === -1 ? [jid, ''] : [jid.slice(0, slash), jid.slice(slash + 1)];
}
