/**
 * The console's event stream survives a restart of the Lobby server. A browser's EventSource
 * gives up for good when a reconnection is answered with something other than a 200 event stream (nginx's
 * 502 while the server is down); keepEventStream opens it anew.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepEventStream } from '../src/api/eventStream.ts';

/** An EventSource as far as keepEventStream uses it: listeners, readyState, close(). */
class FakeSource {
  readyState = 0;
  closed = false;
  readonly listeners = new Map<string, ((event: Event) => void)[]>();
  addEventListener(name: string, listener: (event: Event) => void): void {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
  }
  close(): void {
    this.closed = true;
    this.readyState = 2;
  }
  fire(name: string): void {
    for (const listener of this.listeners.get(name) ?? []) listener(new Event(name));
  }
  opened(): void {
    this.readyState = 1;
    this.fire('open');
  }
  /** a network error: the browser reconnects by itself (readyState CONNECTING) */
  dropped(): void {
    this.readyState = 0;
    this.fire('error');
  }
  /** an answer that is not an event stream (502): the browser gives up (readyState CLOSED) */
  refused(): void {
    this.readyState = 2;
    this.fire('error');
  }
}

afterEach(() => vi.useRealTimers());

describe('keepEventStream', () => {
  it('when the browser gives the stream up (a 502 while the server restarts), then it is opened anew with a growing delay and is live again', () => {
    vi.useFakeTimers();
    const sources: FakeSource[] = [];
    const live: boolean[] = [];
    const wired: FakeSource[] = [];
    keepEventStream(
      () => {
        const source = new FakeSource();
        sources.push(source);
        return source as unknown as EventSource;
      },
      (source) => wired.push(source as unknown as FakeSource),
      (l) => live.push(l),
    );
    sources[0]!.opened();

    sources[0]!.refused();
    expect(live).toEqual([true, false]);
    expect(sources[0]!.closed).toBe(true);
    vi.advanceTimersByTime(999);
    expect(sources).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sources).toHaveLength(2);
    // still down: the next attempt waits twice as long
    sources[1]!.refused();
    vi.advanceTimersByTime(1999);
    expect(sources).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sources).toHaveLength(3);

    sources[2]!.opened();
    expect(live.at(-1)).toBe(true);
    // each stream gets the event listeners
    expect(wired).toEqual(sources);
  });

  it('when the stream only dropped (the browser reconnects by itself), or was stopped, then no second stream is opened', () => {
    vi.useFakeTimers();
    const sources: FakeSource[] = [];
    const stop = keepEventStream(
      () => {
        const source = new FakeSource();
        sources.push(source);
        return source as unknown as EventSource;
      },
      () => undefined,
      () => undefined,
    );
    sources[0]!.dropped();
    vi.advanceTimersByTime(60_000);
    expect(sources).toHaveLength(1);

    stop();
    sources[0]!.refused();
    vi.advanceTimersByTime(60_000);
    expect(sources).toHaveLength(1);
    expect(sources[0]!.closed).toBe(true);
  });
});
