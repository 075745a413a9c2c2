// On hold the guest's timer says on hold and keeps the call's running time (it used to
// say "Connecting…" because the agent's media is gone), in English and in Arabic.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { initialCallStatus, type CallKind } from '@lobby/call';
import { OngoingScreen } from '../src/features/ongoing/OngoingScreen.tsx';
import { createGuestStore } from '../src/state/store.ts';
import { ensureLanguage } from '../src/i18n/index.ts';
import { company, Wrapper } from './helpers.tsx';

afterEach(cleanup);

function renderOnHold(language: 'en' | 'ar', callType: CallKind = 'video') {
  const store = createGuestStore({
    phase: 'ready',
    company: company({ language: language === 'ar' ? 'arabic' : 'english' }),
    language,
    screen: 'ongoing',
    callType,
    // answered 75 s ago; on hold, so no remote stream at all
    callStartedAt: Date.now() - 75_000,
    remoteFeeds: [],
  });
  store.getState().setInCall({ status: { ...initialCallStatus(), peerCall: 'Paused' } });
  render(
    <Wrapper store={store}>
      <OngoingScreen />
    </Wrapper>,
  );
  return screen.getByTestId('call-timer');
}

describe('the guest call timer on hold', () => {
  it('when the agent holds the call, then the timer says on hold and runs on from the answer (not Connecting…)', () => {
    const timer = renderOnHold('en');
    expect(timer.getAttribute('data-on-hold')).toBe('true');
    expect(timer.textContent).toContain('On hold');
    expect(timer.textContent).not.toContain('Connecting');
    expect(timer.querySelector('time')?.textContent).toMatch(/^1:1\d$/);
  });

  it('when the page is Arabic, then the timer says on hold in Arabic', async () => {
    await ensureLanguage('ar');
    const timer = renderOnHold('ar');
    await waitFor(() => expect(timer.textContent).toContain('في الانتظار'));
    expect(timer.textContent).not.toContain('جارٍ الاتصال');
    expect(timer.querySelector('time')?.textContent).toMatch(/^1:1\d$/);
  });
});

describe('the guest call screen behind the hold page', () => {
  // the agent's tile (video) or name (voice) lies under the hold page and is still read by a screen reader:
  // on hold it must say on hold, never "Connecting…"
  it.each(['video', 'voice'] as const)('when the agent holds a %s call, then nothing on the call screen says Connecting…', async (callType) => {
    const call = renderOnHold('en', callType).closest('section');
    expect(call?.dataset.callKind).toBe(callType);
    await waitFor(() => expect(call?.textContent).toContain('On hold'));
    expect(call?.textContent).not.toContain('Connecting');
    if (callType === 'video') expect(screen.getByTestId('remote-on-hold').textContent).toBe('On hold');
  });

  it('when the page is Arabic, then the tile says on hold in Arabic, not connecting', async () => {
    await ensureLanguage('ar');
    const call = renderOnHold('ar').closest('section');
    await waitFor(() => expect(screen.getByTestId('remote-on-hold').textContent).toBe('في الانتظار'));
    expect(call?.textContent).not.toContain('جارٍ الاتصال');
  });
});
