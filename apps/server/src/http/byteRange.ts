/**
 * One `Range: bytes=…` request header against a file of `size` bytes (RFC 9110 §14), for the recordings a
 * supervisor plays and seeks in (docs/api.md): a video element asks for the part it seeks to, and a
 * server that answered the whole file kept the player at the start.
 *
 * - `whole`: no Range header, another unit, a header that does not parse, or several ranges (a server
 *   may ignore a Range header; players ask for one range at a time, and several would need a
 *   multipart/byteranges body) — answer 200 with the file;
 * - `part`: one satisfiable range, [start, end] inclusive, the end cut to the file — answer 206;
 * - `unsatisfiable`: the one range starts at or past the end (or asks for the last 0 bytes) — answer 416.
 */
export type ByteRange = { kind: 'whole' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

const ONE_RANGE = /^bytes=[ \t]*(\d*)-(\d*)[ \t]*$/i;

export function byteRangeOf(header: string | undefined, size: number): ByteRange {
  if (!header) return { kind: 'whole' };
  const match = ONE_RANGE.exec(header);
  if (!match) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    // bytes=-N: the last N bytes
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return { kind: 'whole' }; // not a valid range: the header is ignored
  if (start >= size) return { kind: 'unsatisfiable' };
  const end = last === '' ? size - 1 : Number(last);
  return { kind: 'part', start, end: Math.min(end, size - 1) };
}
