/**
 * The queue rows' details requests (features/queue/detailsLoader.ts): asked only once a row settled, at
 * most `limit` at once, a queued or running request left when its row goes, answers kept.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallDetails } from '../src/api/calls.ts';
import { createDetailsLoader } from '../src/features/queue/detailsLoader.ts';

const details = (callId: string) => ({ callId }) as unknown as CallDetails;

/** a fake server: each request waits until the test answers it, or until it is aborted */
function fakeServer() {
  const open = new Map<string, () => void>();
  let peak = 0;
  const fetchDetails = (callId: string, signal: AbortSignal) =>
    new Promise<CallDetails>((resolve, reject) => {
      open.set(callId, () => resolve(details(callId)));
      peak = Math.max(peak, open.size);
      signal.addEventListener('abort', () => {
        open.delete(callId);
        reject(new DOMException('aborted', 'AbortError'));
      });
    }).finally(() => open.delete(callId));
  return { fetchDetails, open, peak: () => peak, answer: (callId: string) => open.get(callId)!() };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('details loader', () => {
  it('when 10 rows ask at once, then no more than the limit run together, and each waiting one runs as one ends', async () => {
    const server = fakeServer();
    const loader = createDetailsLoader(server.fetchDetails, 3, 100);
    const answers = Array.from({ length: 10 }, (_, i) => loader.load(`c${i}`, new AbortController().signal));
    await vi.advanceTimersByTimeAsync(99);
    expect(server.open.size).toBe(0); // not before the rows settled
    await vi.advanceTimersByTimeAsync(1);
    expect([...server.open.keys()]).toEqual(['c0', 'c1', 'c2']);
    server.answer('c1');
    await vi.advanceTimersByTimeAsync(0);
    expect([...server.open.keys()]).toEqual(['c0', 'c2', 'c3']);
    for (let i = 0; i < 10; i++) {
      for (const callId of [...server.open.keys()]) server.answer(callId);
      await vi.advanceTimersByTimeAsync(0);
    }
    expect(await Promise.all(answers)).toEqual(Array.from({ length: 10 }, (_, i) => details(`c${i}`)));
    expect(server.peak()).toBe(3);
    expect(loader.cached('c7')).toEqual(details('c7'));
  });

  it('when a row is scrolled away before it settled, while it waits its turn or while it is asked, then its request never starts or is cancelled', async () => {
    const server = fakeServer();
    const loader = createDetailsLoader(server.fetchDetails, 1, 100);
    const rows = ['early', 'running', 'queued', 'next'].map((callId) => ({ callId, abort: new AbortController() }));
    const early = loader.load('early', rows[0]!.abort.signal);
    rows[0]!.abort.abort();
    await expect(early).rejects.toThrow('aborted');
    const running = loader.load('running', rows[1]!.abort.signal);
    const queued = loader.load('queued', rows[2]!.abort.signal);
    const next = loader.load('next', rows[3]!.abort.signal);
    await vi.advanceTimersByTimeAsync(100);
    expect([...server.open.keys()]).toEqual(['running']);
    rows[2]!.abort.abort(); // leaves the line
    rows[1]!.abort.abort(); // cancelled in flight: its place goes to the next row still drawn
    await expect(queued).rejects.toThrow('aborted');
    await expect(running).rejects.toThrow('aborted');
    await vi.advanceTimersByTimeAsync(0);
    expect([...server.open.keys()]).toEqual(['next']);
    server.answer('next');
    await expect(next).resolves.toEqual(details('next'));
  });
});
