/** Types of infra/stun.mjs. */
export function stunMessage(type: number, tid: Buffer, attrs: [number, Buffer][], key?: Buffer): Buffer;
export function stunAttrs(msg: Buffer): Map<number, Buffer>;
