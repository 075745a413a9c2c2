// The STUN/TURN message codec (RFC 5389/5766) of the stack check (check-stack.mjs) and the attacker
// suite's TURN client (e2e/support/turn.ts): plain JS so that both a node script and TypeScript use it.
import crypto from 'node:crypto';

/**
 * A STUN message of `type` with transaction id `tid` (12 bytes) and `attrs` ([type, value] pairs);
 * with `key`, a MESSAGE-INTEGRITY attribute is appended.
 */
export function stunMessage(type, tid, attrs, key) {
  const body = [];
  for (const [t, v] of attrs) {
    const h = Buffer.alloc(4);
    h.writeUInt16BE(t, 0);
    h.writeUInt16BE(v.length, 2);
    body.push(h, v, Buffer.alloc((4 - (v.length % 4)) % 4));
  }
  let payload = Buffer.concat(body);
  const header = (len) => {
    const h = Buffer.alloc(20);
    h.writeUInt16BE(type, 0);
    h.writeUInt16BE(len, 2);
    h.writeUInt32BE(0x2112a442, 4);
    tid.copy(h, 8);
    return h;
  };
  if (key) {
    // MESSAGE-INTEGRITY: HMAC-SHA1 over the message whose length already counts this attribute.
    const mac = crypto
      .createHmac('sha1', key)
      .update(Buffer.concat([header(payload.length + 24), payload]))
      .digest();
    const h = Buffer.alloc(4);
    h.writeUInt16BE(0x0008, 0);
    h.writeUInt16BE(20, 2);
    payload = Buffer.concat([payload, h, mac]);
  }
  return Buffer.concat([header(payload.length), payload]);
}
/** The attributes of a STUN message, by type (the last of a repeated type wins). */
export function stunAttrs(msg) {
  const out = new Map();
  for (let i = 20; i + 4 <= msg.length;) {
    const t = msg.readUInt16BE(i);
    const len = msg.readUInt16BE(i + 2);
    out.set(t, msg.subarray(i + 4, i + 4 + len));
    i += 4 + len + ((4 - (len % 4)) % 4);
  }
  return out;
}
