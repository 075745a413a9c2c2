/**
 * A bare Janus client for the attacker suite: JSON over the public websocket (`/janus`, subprotocol
 * `janus-protocol`) or the public HTTP API (`/janus-http`), answers matched by transaction. Not janus.js:
 * it sends exactly what it is given.
 */
import { randomUUID } from 'node:crypto';

export type JanusAnswer = Record<string, unknown> & {
  janus?: string;
  error?: { code?: number; reason?: string };
  data?: { id?: number };
  plugindata?: { data?: Record<string, unknown> };
};

/** Whether Janus (or the gate before it) refused: a core error, or a plugin answer with an error code. */
export function refused(answer: JanusAnswer): boolean {
  if (answer.janus === 'error') return true;
  const data = answer.plugindata?.data;
  return !!data && (data.error_code !== undefined || data.error !== undefined);
}

export class RawJanusSocket {
  readonly #ws: WebSocket;
  readonly #pending = new Map<string, (answer: JanusAnswer) => void>();
  /** transactions whose `ack` is their answer (a keepalive has no other) */
  readonly #ackIsAnswer = new Set<string>();

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.onmessage = (event) => {
      const answer = JSON.parse(String(event.data)) as JanusAnswer;
      const tx = typeof answer.transaction === 'string' ? answer.transaction : '';
      // a plugin request's result follows as success or event
      if (answer.janus === 'ack' && !this.#ackIsAnswer.delete(tx)) return;
      this.#pending.get(tx)?.(answer);
      this.#pending.delete(tx);
    };
  }

  static open(url: string): Promise<RawJanusSocket> {
    const ws = new WebSocket(url, 'janus-protocol');
    return new Promise((resolve, reject) => {
      ws.onopen = () => resolve(new RawJanusSocket(ws));
      ws.onerror = () => reject(new Error(`cannot open ${url}`));
    });
  }

  /** Sends a request; its answer is the first that is not an `ack`, or its `ack` when `ackIsAnswer` (keepalive). */
  request(body: Record<string, unknown>, timeoutMs = 10_000, ackIsAnswer = body.janus === 'keepalive'): Promise<JanusAnswer> {
    const transaction = randomUUID();
    if (ackIsAnswer) this.#ackIsAnswer.add(transaction);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`janus ${String(body.janus)}: no answer`)), timeoutMs);
      this.#pending.set(transaction, (answer) => {
        clearTimeout(timer);
        this.#ackIsAnswer.delete(transaction);
        resolve(answer);
      });
      this.#ws.send(JSON.stringify({ ...body, transaction }));
    });
  }

  close(): void {
    this.#ws.close();
  }
}

export async function janusHttp(url: string, body: Record<string, unknown>): Promise<JanusAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, transaction: randomUUID() }),
  });
  const text = await response.text();
  try {
    return JSON.parse(text) as JanusAnswer;
  } catch {
    return { janus: 'error', error: { code: response.status, reason: text } };
  }
}
