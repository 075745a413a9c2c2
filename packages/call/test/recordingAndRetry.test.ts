import { describe, expect, it } from 'vitest';
import { recordingFilename } from '../src/room/recording.ts';
import { retry } from '../src/media/retry.ts';

describe('recording file names', () => {
  it('when a guest records, then the name has the SPEC shape', () => {
    expect(
      recordingFilename({
        root: '/data/recordings/',
        companyId: 18,
        callId: 'g1--a',
        username: 'g1',
        role: 'guest',
        timestamp: 5,
      }),
    ).toBe('/data/recordings/18/g1--a/g1--a_g1_guest_5');
  });

  it('when a screen is recorded, then the role has the -screen suffix', () => {
    expect(
      recordingFilename({
        root: '/r',
        companyId: 1,
        callId: 'c--1',
        username: 'agent@lobby.local',
        role: 'agent',
        screen: true,
        timestamp: 7,
      }),
    ).toBe('/r/1/c--1/c--1_agent@lobby.local_agent-screen_7');
  });

  it('when a name holds path characters, then they cannot escape the call folder', () => {
    const name = recordingFilename({
      root: '/r',
      companyId: 1,
      callId: '../../x',
      username: 'a/b',
      role: 'guest',
      timestamp: 1,
    });
    expect(name.startsWith('/r/1/')).toBe(true);
    expect(name.split('/')).toHaveLength(5);
  });
});

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
});
