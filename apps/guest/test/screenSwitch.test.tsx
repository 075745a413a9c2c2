import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen as view } from '@testing-library/react';
import { SCREENS } from '../src/state/screens.ts';
import { createGuestStore } from '../src/state/store.ts';
import { ScreenSwitch } from '../src/features/screens/ScreenSwitch.tsx';
import { company, Wrapper } from './helpers.tsx';

afterEach(cleanup);
// the preview opens the camera: a browser whose permission prompt is still open
beforeAll(() => {
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia: () => new Promise(() => undefined), enumerateDevices: () => Promise.resolve([]) },
  });
});

function renderAt(store: ReturnType<typeof createGuestStore>) {
  return render(
    <Wrapper store={store}>
      <ScreenSwitch onRetry={() => undefined} />
    </Wrapper>,
  );
}

describe('ScreenSwitch', () => {
  it.each(SCREENS)('when the store says "%s", then that screen is rendered', async (name) => {
    const store = createGuestStore({ phase: 'ready', company: company(), screen: name });
    const { container } = renderAt(store);
    // screens are lazy chunks: the first import of one is compiled by the test runner on the spot, which
    // takes over a second on a loaded machine (a wait, not a performance budget: those live in bench/)
    await expect.poll(() => container.querySelector(`[data-screen="${name}"]`), { timeout: 10_000 }).not.toBeNull();
    expect(container.querySelectorAll('[data-screen]')).toHaveLength(1);
  });

  it('when the company is still loading, then the loading state is shown', () => {
    const { container } = renderAt(createGuestStore());
    expect(container.querySelector('[data-screen="loading"]')).not.toBeNull();
  });

  it('when the company failed to load, then the error screen offers a retry', () => {
    const store = createGuestStore({ phase: 'failed', error: { code: 'company-load' } });
    const { container } = renderAt(store);
    expect(container.querySelector('[data-screen="error"]')).not.toBeNull();
    expect(view.getByTestId('retry-button')).toBeTruthy();
  });

  it('when the call is ongoing, then remote and local tiles and the controls are there', async () => {
    const store = createGuestStore({ phase: 'ready', company: company(), screen: 'ongoing', callType: 'video' });
    renderAt(store);
    expect(await view.findByTestId('remote-video')).toBeTruthy();
    expect(view.getByTestId('local-video').getAttribute('data-has-stream')).toBe('false');
    expect(view.getByTestId('hangup-button').getAttribute('aria-label')).toBe('End call');
    expect(view.getByTestId('mute-audio-button')).toBeTruthy();
    expect(view.getByTestId('mute-video-button')).toBeTruthy();
  });
});
