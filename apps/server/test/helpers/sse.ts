// Server-sent events client for the route tests of /api/console/events (events, routing, transfers).
import http from 'node:http';

export interface SseClient {
  status: number;
  contentType: string;
  events: Array<{ event: string; data: unknown }>;
  raw: string;
  close(): void;
  waitFor(n: number, ms?: number): Promise<void>;
}

export function connect(port: number, cookie?: string): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/console/events', headers: cookie ? { cookie } : {} }, (res) => {
      const client: SseClient = {
        status: res.statusCode ?? 0,
        contentType: String(res.headers['content-type']),
        events: [],
        raw: '',
        close: () => req.destroy(),
        waitFor: (n, ms = 2000) =>
          new Promise((ok, ko) => {
            const started = Date.now();
            const tick = () => {
              if (client.events.length >= n) return ok();
              if (Date.now() - started > ms) return ko(new Error(`only ${client.events.length} events`));
              setTimeout(tick, 10);
            };
            tick();
          }),
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        client.raw += chunk;
        const blocks = client.raw.split('\n\n');
        client.raw = blocks.pop() ?? '';
        for (const block of blocks) {
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) client.events.push({ event, data: JSON.parse(data) });
        }
      });
      resolve(client);
    });
    req.on('error', reject);
  });
}
