/**
 * A browser's websocket to a running gate's `/janus` (web/janusGate.ts), for the tests that run the real
 * gate in front of a fake Janus: `ask` sends a request with a transaction of its own and resolves with
 * the answer to it.
 */
import { WebSocket } from 'ws';

export async function gateSocket(
  port: number,
): Promise<{ ws: WebSocket; ask: (m: Record<string, unknown>) => Promise<Record<string, unknown>>; close: () => void }> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/janus`, 'janus-protocol');
  await new Promise((r) => ws.once('open', r));
  let n = 0;
  const ask = (m: Record<string, unknown>) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const transaction = `t${++n}`;
      const onMessage = (data: Buffer) => {
        const answer = JSON.parse(data.toString()) as Record<string, unknown>;
        if (answer.transaction !== transaction) return;
        ws.off('message', onMessage);
        resolve(answer);
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ ...m, transaction }));
    });
  return { ws, ask, close: () => ws.close() };
}
