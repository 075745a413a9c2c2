/**
 * A bare TURN client (RFC 5766 over UDP) for the attacker suite: allocate a relay with REST-API
 * credentials (the shared secret's scheme ejabberd hands out), then ask for a permission to a peer.
 * coturn answers CreatePermission with 403 for a peer its rules deny.
 */
import crypto from 'node:crypto';
import dgram from 'node:dgram';

function stunMessage(type: number, attrs: [number, Buffer][], key?: Buffer): Buffer {
  const tid = crypto.randomBytes(12);
  const body: Buffer[] = [];
  for (const [t, v] of attrs) {
    const h = Buffer.alloc(4);
    h.writeUInt16BE(t, 0);
    h.writeUInt16BE(v.length, 2);
    body.push(h, v, Buffer.alloc((4 - (v.length % 4)) % 4));
  }
  let payload = Buffer.concat(body);
  const header = (len: number) => {
    const h = Buffer.alloc(20);
    h.writeUInt16BE(type, 0);
    h.writeUInt16BE(len, 2);
    h.writeUInt32BE(0x2112a442, 4);
    tid.copy(h, 8);
    return h;
  };
  if (key) {
    // MESSAGE-INTEGRITY: HMAC-SHA1 over the message whose length already counts this attribute
    const mac = crypto.createHmac('sha1', key).update(Buffer.concat([header(payload.length + 24), payload])).digest();
    const h = Buffer.alloc(4);
    h.writeUInt16BE(0x0008, 0);
    h.writeUInt16BE(20, 2);
    payload = Buffer.concat([payload, h, mac]);
  }
  return Buffer.concat([header(payload.length), payload]);
}

function stunAttrs(msg: Buffer): Map<number, Buffer> {
  const out = new Map<number, Buffer>();
  for (let i = 20; i + 4 <= msg.length; ) {
    const t = msg.readUInt16BE(i);
    const len = msg.readUInt16BE(i + 2);
    out.set(t, msg.subarray(i + 4, i + 4 + len));
    i += 4 + len + ((4 - (len % 4)) % 4);
  }
  return out;
}

/** XOR-PEER-ADDRESS of an IPv4 peer */
function xorPeer(ip: string, port: number): Buffer {
  const b = Buffer.alloc(8);
  b[1] = 0x01;
  b.writeUInt16BE(port ^ 0x2112, 2);
  ip.split('.').forEach((x, i) => (b[4 + i] = Number(x) ^ [0x21, 0x12, 0xa4, 0x42][i]!));
  return b;
}

/**
 * Allocates on the TURN server at 127.0.0.1:`port` and asks for a permission to `peer`; resolves with
 * the STUN answer's class: 'ok' or the error code (403: the peer is denied).
 */
export async function permissionTo(port: number, secret: string, peer: string): Promise<'ok' | number> {
  const username = `${Math.floor(Date.now() / 1000) + 600}:attacker`;
  const password = crypto.createHmac('sha1', secret).update(username).digest('base64');
  const sock = dgram.createSocket('udp4');
  const exchange = (msg: Buffer) =>
    new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`TURN 127.0.0.1:${port}: no answer`)), 3000);
      sock.once('message', (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      sock.send(msg, port, '127.0.0.1');
    });
  try {
    const udp = Buffer.from([17, 0, 0, 0]); // REQUESTED-TRANSPORT: UDP
    const first = stunAttrs(await exchange(stunMessage(0x0003, [[0x0019, udp]])));
    const realm = first.get(0x0014);
    const nonce = first.get(0x0015);
    if (!realm || !nonce) throw new Error('TURN: no realm/nonce challenge');
    const key = crypto.createHash('md5').update(`${username}:${realm.toString()}:${password}`).digest();
    const auth: [number, Buffer][] = [
      [0x0006, Buffer.from(username)],
      [0x0014, realm],
      [0x0015, nonce],
    ];
    const allocated = await exchange(stunMessage(0x0003, [[0x0019, udp], ...auth], key));
    if (allocated.readUInt16BE(0) !== 0x0103) throw new Error(`TURN: allocate refused (${allocated.readUInt16BE(0).toString(16)})`);
    const answer = await exchange(stunMessage(0x0008, [[0x0012, xorPeer(peer, 9)], ...auth], key));
    if (answer.readUInt16BE(0) === 0x0108) return 'ok';
    const err = stunAttrs(answer).get(0x0009);
    return err ? err[2]! * 100 + err[3]! : -1;
  } finally {
    sock.close();
  }
}
