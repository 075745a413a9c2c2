/**
 * A bare XMPP client over the websocket (RFC 7395), written for the attacker suite: it is not the
 * product's engine (no StanzaJS), it sends exactly the XML it is given and records every stanza it
 * receives, so a test can prove what ejabberd delivers and what it does not.
 */
const FRAMING = 'urn:ietf:params:xml:ns:xmpp-framing';

export class RawXmpp {
  readonly jid: string;
  /** every stanza (message, presence, iq) received, as XML text */
  readonly received: string[] = [];
  #ws: WebSocket | null = null;
  #waiters: { match: (xml: string) => boolean; resolve: (xml: string) => void }[] = [];
  #fullJid = '';
  /** called once when the websocket closes (the server went away, or close()) */
  onClose: (() => void) | null = null;

  constructor(jid: string) {
    this.jid = jid;
  }

  get fullJid(): string {
    return this.#fullJid;
  }

  #next(match: (xml: string) => boolean, what: string, timeoutMs = 10_000): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`raw xmpp ${this.jid}: no ${what} in ${timeoutMs} ms`)), timeoutMs);
      this.#waiters.push({
        match,
        resolve: (xml) => {
          clearTimeout(timer);
          resolve(xml);
        },
      });
    });
  }

  #onFrame(xml: string): void {
    if (/^<(message|presence|iq)[\s>]/.test(xml)) this.received.push(xml);
    const i = this.#waiters.findIndex((w) => w.match(xml));
    if (i >= 0) this.#waiters.splice(i, 1)[0]!.resolve(xml);
  }

  send(xml: string): void {
    if (!this.#ws) throw new Error('not connected');
    this.#ws.send(xml);
  }

  /** Opens the stream, logs in with SASL PLAIN (the credential is the JWT), binds and sends presence. */
  async connect(wsUrl: string, credential: string, resource = 'raw'): Promise<void> {
    const [local, domain] = this.jid.split('@') as [string, string];
    const ws = new WebSocket(wsUrl, 'xmpp');
    this.#ws = ws;
    // ejabberd quotes attributes with ' : normalised to " so that tests match one spelling
    ws.onmessage = (event) => this.#onFrame(String(event.data).replace(/='([^']*)'/g, '="$1"'));
    ws.onclose = () => this.onClose?.();
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error(`cannot open ${wsUrl}`));
    });
    const open = `<open xmlns="${FRAMING}" to="${domain}" version="1.0"/>`;
    const features = this.#next((x) => x.startsWith('<stream:features') || x.includes('<mechanisms'), 'features');
    this.send(open);
    await features;
    const auth = Buffer.from(`\0${local}\0${credential}`).toString('base64');
    const success = this.#next((x) => x.startsWith('<success') || x.startsWith('<failure'), 'SASL answer');
    this.send(`<auth xmlns="urn:ietf:params:xml:ns:xmpp-sasl" mechanism="PLAIN">${auth}</auth>`);
    if (!(await success).startsWith('<success')) throw new Error(`raw xmpp ${this.jid}: SASL refused`);
    const features2 = this.#next((x) => x.includes('urn:ietf:params:xml:ns:xmpp-bind'), 'bind feature');
    this.send(open);
    await features2;
    const bound = this.#next((x) => x.includes('id="bind1"'), 'bind result');
    this.send(
      `<iq type="set" id="bind1"><bind xmlns="urn:ietf:params:xml:ns:xmpp-bind"><resource>${resource}</resource></bind></iq>`,
    );
    this.#fullJid = /<jid>([^<]+)<\/jid>/.exec(await bound)?.[1] ?? '';
    if (!this.#fullJid) throw new Error(`raw xmpp ${this.jid}: not bound`);
    this.send('<presence/>');
  }

  /** Resolves with the first received stanza matching, or rejects after `timeoutMs`. */
  waitFor(match: (xml: string) => boolean, what: string, timeoutMs = 10_000): Promise<string> {
    const seen = this.received.find(match);
    return seen !== undefined ? Promise.resolve(seen) : this.#next(match, what, timeoutMs);
  }

  /** the websocket is open */
  get open(): boolean {
    return this.#ws?.readyState === WebSocket.OPEN;
  }

  close(): void {
    this.onClose = null;
    try {
      this.#ws?.send(`<close xmlns="${FRAMING}"/>`);
    } catch {
      // already closed
    }
    this.#ws?.close();
    this.#ws = null;
  }
}

/** A Jingle RTP session-initiate (XEP-0166/0167/0176) as a p2p guest sends it, from `from` to `to`. */
export function jingleInitiate(from: string, to: string, id: string): string {
  return (
    `<iq type="set" to="${to}" id="${id}"><jingle xmlns="urn:xmpp:jingle:1" action="session-initiate" sid="${id}" initiator="${from}">` +
    `<content creator="initiator" name="0" senders="both"><description xmlns="urn:xmpp:jingle:apps:rtp:1" media="audio"><payload-type id="111" name="opus" clockrate="48000" channels="2"/></description>` +
    `<transport xmlns="urn:xmpp:jingle:transports:ice-udp:1" ufrag="abcd" pwd="abcdefghijklmnopqrstuvwx"><fingerprint xmlns="urn:xmpp:jingle:apps:dtls:0" hash="sha-256" setup="actpass">AA:BB</fingerprint></transport></content></jingle></iq>`
  );
}
