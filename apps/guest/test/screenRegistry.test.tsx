import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { useState } from 'react';
import { createGuestStore } from '../src/state/store.ts';
import { ScreenSwitch } from '../src/features/screens/ScreenSwitch.tsx';
import { ScreenRegistry } from '../src/features/screens/registry.ts';
import { company, Wrapper } from './helpers.tsx';

afterEach(cleanup);
beforeAll(() => {
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia: () => new Promise(() => undefined), enumerateDevices: () => Promise.resolve([]) },
  });
});
// every screen's chunk in, as the idle preload does: the first import transforms each screen's module
// graph, seconds on a loaded machine (its time is not what this file tests)
beforeAll(() => ScreenRegistry.preloadAll(), 60_000);

describe('lazy screens', () => {
  it('when a lazy screen\'s chunk has arrived, then switching to it shows it in the same render, never the loading screen', async () => {
    // arrange: a guest waiting, every screen's chunk in (as the idle preload does)
    const store = createGuestStore({ phase: 'ready', company: company(), screen: 'waiting', callType: 'video' });
    const { container } = render(
      <Wrapper store={store}>
        <ScreenSwitch onRetry={() => undefined} />
      </Wrapper>,
    );
    await expect.poll(() => container.querySelector('[data-screen="waiting"]')).not.toBeNull();
    const shown: string[] = [];
    const observer = new MutationObserver(() => {
      for (const el of container.querySelectorAll('[data-screen]')) shown.push(el.getAttribute('data-screen')!);
    });
    observer.observe(container, { childList: true, subtree: true });
    // act: the agent answers
    act(() => store.setState({ screen: 'ongoing' }));
    // assert: the call screen (and the agent's tile) is there at once
    expect(container.querySelector('[data-screen="ongoing"]')).not.toBeNull();
    expect(container.querySelector('[data-testid="remote-video"]')).not.toBeNull();
    await new Promise((r) => setTimeout(r, 50));
    observer.disconnect();
    expect(shown).not.toContain('loading');
  });

  it('when a screen\'s chunk arrives while the screen is shown, then the screen is not mounted again', async () => {
    // arrange: a lazy screen whose chunk we deliver ourselves, with state of its own
    let deliver!: () => void;
    let mounts = 0;
    function Counted() {
      const [mount] = useState(() => ++mounts);
      return <div data-screen="rating" data-mount={mount} />;
    }
    ScreenRegistry.registerLazy('rating', () => new Promise((resolve) => (deliver = () => resolve(Counted))));
    const store = createGuestStore({ phase: 'ready', company: company(), screen: 'rating' });
    const { container, rerender } = render(
      <Wrapper store={store}>
        <ScreenSwitch onRetry={() => undefined} />
      </Wrapper>,
    );
    await act(() => {
      deliver();
      return Promise.resolve();
    });
    await expect.poll(() => container.querySelector('[data-screen="rating"]')).not.toBeNull();
    // act: the switch renders again (anything above it changed)
    rerender(
      <Wrapper store={store}>
        <ScreenSwitch onRetry={() => 'another'} />
      </Wrapper>,
    );
    // assert: the same mount, its state kept
    expect(container.querySelector('[data-screen="rating"]')?.getAttribute('data-mount')).toBe('1');
    expect(mounts).toBe(1);
  });
});
