import { describe, expect, it } from 'vitest';
import { isTransientGatewayError, retry } from '../src/media/retry.ts';

describe('retry', () => {
  it('when a call fails twice then succeeds, then it resolves on the third attempt', async () => {
    let n = 0;
    const value = await retry(() => (++n < 3 ? Promise.reject(new Error('no')) : Promise.resolve(n)), {
      attempts: 20,
      delayMs: 1,
    });
    expect(value).toBe(3);
  });

  it('when every attempt fails, then the last error comes out after exactly that many attempts', async () => {
    let n = 0;
    await expect(
      retry(() => Promise.reject(new Error(`fail ${++n}`)), { attempts: 4, delayMs: 1 }),
    ).rejects.toThrow('fail 4');
    expect(n).toBe(4);
  });

  it('when an error is final (an answer refusing us), then it is not asked again; a server down is, with each retry told', async () => {
    let n = 0;
    await expect(
      retry(() => Promise.reject(new Error(`Ooops: 433 Unauthorized ${++n}`)), { attempts: 20, delayMs: 1, transient: isTransientGatewayError }),
    ).rejects.toThrow('Unauthorized 1');
    expect(n).toBe(1);
    const told: number[] = [];
    let m = 0;
    const value = await retry(
      () => (++m < 4 ? Promise.reject(new Error('Lost connection to the server (is it down?)')) : Promise.resolve('back')),
      { attempts: 20, delayMs: 1, transient: isTransientGatewayError, onRetry: (_e, attempt) => told.push(attempt) },
    );
    expect(value).toBe('back');
    expect(told).toEqual([1, 2, 3]);
  });

  it('when the delay grows, then it never exceeds the bound', async () => {
    const waits: number[] = [];
    const realSetTimeout = globalThis.setTimeout;
    const spy = ((fn: () => void, ms?: number) => {
      waits.push(ms ?? 0);
      return realSetTimeout(fn, 0);
    }) as typeof setTimeout;
    globalThis.setTimeout = spy;
    try {
      await expect(retry(() => Promise.reject(new Error('Request timed out')), { attempts: 20, delayMs: 500, maxDelayMs: 1500 })).rejects.toThrow();
    } finally {
      globalThis.setTimeout = realSetTimeout;
    }
    expect(waits).toHaveLength(19);
    expect(Math.max(...waits)).toBe(1500);
    expect(waits[0]).toBe(500);
  });
});
