/**
 * The guest app's CallActions load the engine after the first screen (features/call/lazyCallActions.ts);
 * the in-call UI's chat, devices and screen buttons reach the engine through them (useCallEngine), so they
 * must hand it on once it is made and tell the UI then.
 */
import { describe, expect, it, vi } from 'vitest';
import { createGuestStore } from '../src/state/store.ts';

const made = { name: 'the engine' };
let tellMade: (() => void) | null = null;
let current: typeof made | null = null;

vi.mock('../src/features/call/engineCallActions.ts', () => ({
  engineCallActions: () => ({
    startCall: () => Promise.resolve(),
    engine: () => current,
    onEngine: (listener: () => void) => {
      tellMade = listener;
      return () => undefined;
    },
  }),
}));

describe('lazyCallActions', () => {
  it('when the engine is made after the actions load, then engine() hands it on and the in-call UI is told', async () => {
    const { lazyCallActions } = await import('../src/features/call/lazyCallActions.ts');
    const actions = lazyCallActions(createGuestStore());
    const told = vi.fn();
    actions.onEngine?.(told);
    expect(actions.engine?.()).toBeNull();

    await actions.startCall('video');
    expect(told, 'told when the actions loaded').toHaveBeenCalledTimes(1);
    expect(actions.engine?.(), 'no engine made yet').toBeNull();

    current = made;
    tellMade?.();
    expect(told).toHaveBeenCalledTimes(2);
    expect(actions.engine?.()).toBe(made);
  });
});
