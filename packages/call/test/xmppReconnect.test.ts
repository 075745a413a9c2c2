import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';

/** A StanzaJS client as far as XmppSession uses it: events, the session start calls, its config. */
class FakeClient extends EventEmitter {
  config: Record<string, unknown>;
  reconnectAttempts = 0;
  calls: string[] = [];
  jingle = { iceServers: [], prepareSession: () => undefined };
  sasl = { disable: () => undefined };
  constructor(config: Record<string, unknown>) {
    super();
    this.config = config;
  }
  use() {}
  /** StanzaJS's: the configured password */
  getCredentials() {
    return Promise.resolve({ password: this.config.password as string });
  }
  /** the passwords each connection authenticated with */
  authenticatedWith: string[] = [];
  connect() {
    void this.getCredentials().then(({ password }) => {
      this.authenticatedWith.push(password);
      this.emit('session:started');
    });
  }
  getRoster() {
    this.calls.push('roster');
    return Promise.resolve({ items: [] });
  }
  sendPresence() {
    this.calls.push('presence');
  }
  discoverICEServers() {
    return Promise.resolve([]);
  }
  enableCarbons() {
    this.calls.push('carbons');
    return Promise.resolve();
  }
  disconnect() {
    this.emit('disconnected');
  }
}

let client: FakeClient | null = null;
vi.mock('stanza', () => ({
  createClient: (config: Record<string, unknown>) => (client = new FakeClient(config)),
}));

const { XmppSession } = await import('../src/xmpp/session.ts');

describe('XMPP reconnection', () => {
  it('when the stream drops, then reconnecting is told and, once StanzaJS has a new session, the session start runs again and reconnected is told', async () => {
    const xmpp = new XmppSession({ wsUrl: 'ws://x', jid: 'g@guest', credential: 'c', maxReconnectBackoff: 10 });
    const events: string[] = [];
    xmpp.on('disconnected', () => events.push('disconnected'));
    xmpp.on('reconnecting', ({ attempt }) => events.push(`reconnecting ${attempt}`));
    xmpp.on('reconnected', () => events.push('reconnected'));
    await xmpp.connect();
    const fake = client!;
    // auto reconnect on, stream resumption off, the guest's backoff cap, IQ timeout 15 s
    expect(fake.config).toMatchObject({ autoReconnect: true, useStreamManagement: false, timeout: 15, maxReconnectBackoff: 10 });

    fake.reconnectAttempts = 1;
    fake.emit('disconnected');
    expect(xmpp.connected).toBe(false);
    fake.reconnectAttempts = 2;
    fake.emit('disconnected'); // the first attempt failed too
    fake.emit('session:started');
    await vi.waitFor(() => expect(events).toContain('reconnected'));

    expect(events).toEqual(['disconnected', 'reconnecting 1', 'reconnecting 2', 'reconnected']);
    expect(xmpp.connected).toBe(true);
    expect(fake.calls.filter((c) => c === 'roster')).toHaveLength(2);
    expect(fake.calls.filter((c) => c === 'presence')).toHaveLength(2);
  });

  it('when it reconnects, then it authenticates with a credential asked for then (the first one may have expired)', async () => {
    let asked = 0;
    const xmpp = new XmppSession({ wsUrl: 'ws://x', jid: 'a@lobby', credential: 'first', refreshCredential: () => Promise.resolve(`fresh-${++asked}`) });
    await xmpp.connect();
    const fake = client!;
    expect(fake.authenticatedWith).toEqual(['first']);
    expect(asked).toBe(0);

    fake.emit('disconnected');
    fake.connect(); // StanzaJS's next attempt
    await vi.waitFor(() => expect(fake.authenticatedWith).toEqual(['first', 'fresh-1']));
  });

  it('when the app disconnects on purpose, then no reconnection is told', async () => {
    const xmpp = new XmppSession({ wsUrl: 'ws://x', jid: 'g@guest', credential: 'c' });
    const events: string[] = [];
    xmpp.on('reconnecting', () => events.push('reconnecting'));
    await xmpp.connect();
    await xmpp.disconnect();
    expect(events).toEqual([]);
  });
});
