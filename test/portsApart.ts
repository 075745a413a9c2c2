/** Two loopback ports 1000 apart, both free now: an instance's or a gate's port is its first's + 1000·(i-1) (scripts/lib/instances.sh, scripts/lib/gates.sh). */
import http from 'node:http';
import { freePort } from './freePort.ts';

export async function portsApart(): Promise<[number, number]> {
  for (let i = 0; i < 20; i++) {
    const first = await freePort();
    if (first + 1000 > 65535) continue;
    const probe = http.createServer();
    const free = await new Promise<boolean>((resolve) => {
      probe.once('error', () => resolve(false));
      probe.listen(first + 1000, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return [first, first + 1000];
  }
  throw new Error('no two free ports 1000 apart');
}
