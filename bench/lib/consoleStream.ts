/**
 * A console's event stream (GET /api/console/events) read by a bench, each event noted with the moment
 * it arrived (performance.now()), and percentiles of measured times.
 */
import http from 'node:http';

export interface StreamedEvent {
  event: string;
  data: unknown;
  at: number;
}

export interface ConsoleStream {
  events: StreamedEvent[];
  close(): void;
}

export function consoleStream(port: number, cookie: string): Promise<ConsoleStream> {
  return new Promise((resolve, reject) => {
    const events: StreamedEvent[] = [];
    const req = http.get({ host: '127.0.0.1', port, path: '/api/console/events', headers: { cookie } }, (res) => {
      let raw = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const at = performance.now();
        raw += chunk;
        const blocks = raw.split('\n\n');
        raw = blocks.pop() ?? '';
        for (const block of blocks) {
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data), at });
        }
      });
      resolve({ events, close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}

/** The p-th percentile (0-100) of `xs`, nearest rank. */
export function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}
