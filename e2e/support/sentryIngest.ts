/**
 * A Sentry-compatible ingest endpoint for the diagnostics journey: a plain node HTTP server that takes
 * what the browser SDK sends (`POST /api/<project>/envelope/`, the envelope format of
 * develop.sentry.dev: a header line, then per item a header line and its payload) and keeps every item.
 * A test double of the error-reporting service, which is not part of Lobby's stack.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';

export interface EnvelopeItem {
  type: string;
  header: Record<string, unknown>;
  payload: Buffer;
  /** the payload as JSON, when it is JSON */
  json?: Record<string, unknown>;
}

export interface SentryIngest {
  /** a DSN pointing here, for project 7 */
  dsn: string;
  items: EnvelopeItem[];
  /** every request's method and path */
  requests: string[];
  close(): Promise<void>;
}

function parseJson(buffer: Buffer): Record<string, unknown> | undefined {
  try {
    return JSON.parse(buffer.toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Splits one envelope into its items (a payload is `length` bytes when its header says so, else one line). */
export function parseEnvelope(body: Buffer): EnvelopeItem[] {
  const items: EnvelopeItem[] = [];
  let at = body.indexOf(0x0a) + 1; // past the envelope header
  while (at > 0 && at < body.length) {
    const headerEnd = body.indexOf(0x0a, at);
    if (headerEnd < 0) break;
    const header = parseJson(body.subarray(at, headerEnd)) ?? {};
    at = headerEnd + 1;
    const length = typeof header.length === 'number' ? header.length : undefined;
    let end = length !== undefined ? at + length : body.indexOf(0x0a, at);
    if (end < 0) end = body.length;
    const payload = body.subarray(at, end);
    items.push({ type: String(header.type), header, payload, json: parseJson(payload) });
    at = end + 1;
  }
  return items;
}

/**
 * The rrweb events of a replay_recording item: a `{"segment_id":N}` line, then the events as JSON, zlib
 * compressed when the SDK's compression worker ran.
 */
export function recordingEvents(
  item: EnvelopeItem,
): Array<{ type: number; data?: { tag?: string; payload?: Record<string, unknown> } }> {
  const newline = item.payload.indexOf(0x0a);
  const body = item.payload.subarray(newline + 1);
  const text = body[0] === 0x5b ? body.toString('utf8') : zlib.inflateSync(body).toString('utf8');
  return JSON.parse(text) as Array<{ type: number }>;
}

export async function startSentryIngest(): Promise<SentryIngest> {
  const items: EnvelopeItem[] = [];
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    // the SDK posts from the page's origin: answer CORS like sentry.io does
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-headers', '*');
    if (req.method !== 'POST') return res.end();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (/^\/api\/7\/envelope\//.test(req.url ?? '')) items.push(...parseEnvelope(Buffer.concat(chunks)));
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    dsn: `http://e2epublickey@127.0.0.1:${port}/7`,
    items,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
