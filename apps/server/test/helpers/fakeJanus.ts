/**
 * A fake Janus for the tests that run the real gate (web/janusGate.ts) in front of it: its websocket and
 * HTTP APIs on loopback, each request answered by `answer` (JSON), and a long poll (GET) by `events`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

export async function fakeJanus(
  answer: (m: Record<string, unknown> | null) => Record<string, unknown>,
  events: unknown[],
): Promise<{ wsUrl: string; httpUrl: string; close: () => void }> {
  const reply = (text: string) => JSON.stringify(answer(JSON.parse(text) as Record<string, unknown> | null));
  const ws = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: () => 'janus-protocol' });
  ws.on('connection', (s) => s.on('message', (data: Buffer) => s.send(reply(data.toString()))));
  await new Promise((r) => ws.once('listening', r));
  const http: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      // a long poll (GET) answers a batch of events
      res.end(req.method === 'GET' ? JSON.stringify(events) : reply(text));
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  return {
    wsUrl: `ws://127.0.0.1:${(ws.address() as AddressInfo).port}`,
    httpUrl: `http://127.0.0.1:${(http.address() as AddressInfo).port}/janus`,
    close: () => (ws.close(), http.close()),
  };
}
