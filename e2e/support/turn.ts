/**
 * A bare TURN client (RFC 5766 over UDP) for the attacker suite: allocate a relay with REST-API
 * credentials (the shared secret's scheme ejabberd hands out), then ask for a permission to a peer.
 * coturn answers CreatePermission with 403 for a peer its rules deny.
 */
import crypto from 'node:crypto';
import dgram from 'node:dgram';
import { stunAttrs, stunMessage } from '../../infra/stun.mjs';

/** XOR-PEER-ADDRESS of an IPv4 peer */
function xorPeer(ip: string, port: number): Buffer {
  const b = Buffer.alloc(8);
  b[1] = 0x01;
  b.writeUInt16BE(port ^ 0x2112, 2);
  ip.split('.').forEach((x, i) => (b[4 + i] = Number(x) ^ [0x21, 0x12, 0xa4, 0x42][i]!));
  return b;
}

/**
 * Allocates one relay on the TURN server at 127.0.0.1:`port`, asks it for a permission to each of
 * `peers` in turn and frees the relay again (REFRESH with LIFETIME 0); resolves with each answer's
 * class: 'ok' or the error code (403: the peer is denied). One allocation per call, released at the
 * end, because a relay's port range is small in the tests and an allocation left behind holds a port
 * for its whole lifetime (ten minutes): nine left-behind allocations once exhausted a ten-port range
 * (coturn then refuses to allocate).
 */
export async function permissionsTo(port: number, secret: string, peers: string[]): Promise<('ok' | number)[]> {
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
  const errorCode = (answer: Buffer) => {
    const err = stunAttrs(answer).get(0x0009);
    return err ? err[2]! * 100 + err[3]! : -1;
  };
  try {
    const udp = Buffer.from([17, 0, 0, 0]); // REQUESTED-TRANSPORT: UDP
    const first = stunAttrs(await exchange(stunMessage(0x0003, crypto.randomBytes(12), [[0x0019, udp]])));
    const realm = first.get(0x0014);
    const nonce = first.get(0x0015);
    if (!realm || !nonce) throw new Error('TURN: no realm/nonce challenge');
    const key = crypto.createHash('md5').update(`${username}:${realm.toString()}:${password}`).digest();
    const auth: [number, Buffer][] = [
      [0x0006, Buffer.from(username)],
      [0x0014, realm],
      [0x0015, nonce],
    ];
    const allocated = await exchange(stunMessage(0x0003, crypto.randomBytes(12), [[0x0019, udp], ...auth], key));
    if (allocated.readUInt16BE(0) !== 0x0103) throw new Error(`TURN: allocate refused (${errorCode(allocated)})`);
    try {
      const results: ('ok' | number)[] = [];
      for (const peer of peers) {
        const answer = await exchange(stunMessage(0x0008, crypto.randomBytes(12), [[0x0012, xorPeer(peer, 9)], ...auth], key));
        results.push(answer.readUInt16BE(0) === 0x0108 ? 'ok' : errorCode(answer));
      }
      return results;
    } finally {
      // REFRESH with LIFETIME 0 frees the relay port now rather than in ten minutes
      await exchange(stunMessage(0x0004, crypto.randomBytes(12), [[0x000d, Buffer.alloc(4)], ...auth], key)).catch(() => undefined);
    }
  } finally {
    sock.close();
  }
}

/** permissionsTo for a single peer */
export async function permissionTo(port: number, secret: string, peer: string): Promise<'ok' | number> {
  const [result] = await permissionsTo(port, secret, [peer]);
  return result!;
}
