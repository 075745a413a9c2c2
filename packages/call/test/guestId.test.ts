import { describe, expect, it } from 'vitest';
import { getOrCreateGuestId, type GuestIdEnvironment } from '../src/guestId.ts';

function fakeEnv(initial: { stored?: string; cookie?: string } = {}) {
  const store = new Map<string, string>(initial.stored ? [['guestId', initial.stored]] : []);
  let jar = initial.cookie ? `other=1; guestId=${initial.cookie}` : 'other=1';
  const set: string[] = [];
  const env: GuestIdEnvironment = {
    storage: { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v) },
    cookies: {
      get: () => jar,
      set: (c) => {
        set.push(c);
        jar = c.split(';')[0] ?? '';
      },
    },
    randomUUID: () => '12345678-1234-1234-1234-123456789abc',
  };
  return { env, store, set };
}

describe('guest id', () => {
  it('when there is none, then a dashless id is made and kept in storage and a 365-day cookie', () => {
    const { env, store, set } = fakeEnv();
    const id = getOrCreateGuestId(env);
    expect(id).toBe('12345678123412341234123456789abc');
    expect(store.get('guestId')).toBe(id);
    expect(set[0]).toContain(`guestId=${id}`);
    expect(set[0]).toContain(`max-age=${365 * 24 * 60 * 60}`);
  });

  it('when storage has one, then it is reused', () => {
    const { env } = fakeEnv({ stored: 'aaaabbbbccccddddeeeeffff00001111' });
    expect(getOrCreateGuestId(env)).toBe('aaaabbbbccccddddeeeeffff00001111');
  });

  it('when only the cookie survived, then storage is restored from it', () => {
    const { env, store } = fakeEnv({ cookie: '0123456789abcdef0123456789abcdef' });
    expect(getOrCreateGuestId(env)).toBe('0123456789abcdef0123456789abcdef');
    expect(store.get('guestId')).toBe('0123456789abcdef0123456789abcdef');
  });

  it('when the stored value is malformed, then a new id replaces it', () => {
    const { env } = fakeEnv({ stored: 'not-an-id' });
    expect(getOrCreateGuestId(env)).toBe('12345678123412341234123456789abc');
  });

  it('when storage throws, then the cookie still keeps the id', () => {
    const { env, set } = fakeEnv();
    env.storage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(getOrCreateGuestId(env)).toMatch(/^[0-9a-f]{32}$/);
    expect(set).toHaveLength(1);
  });
});
