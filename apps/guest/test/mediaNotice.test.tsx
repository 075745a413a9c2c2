// The guest's notice while a page of the website takes the call back from its previous page
// (features/call/MediaNotice.tsx, docs/widget.md "Moving between pages"), on the waiting and the call
// screens, in English and Arabic.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import type { MediaNotice as Notice } from '@lobby/call';
import { OngoingScreen } from '../src/features/ongoing/OngoingScreen.tsx';
import { WaitingScreen } from '../src/features/waiting/WaitingScreen.tsx';
import { createGuestStore } from '../src/state/store.ts';
import { ensureLanguage } from '../src/i18n/index.ts';
import { company, Wrapper } from './helpers.tsx';

afterEach(cleanup);

function renderScreen(
  which: 'waiting' | 'ongoing',
  language: 'en' | 'ar',
  state: { takingCallBack: boolean; mediaNotice?: Notice },
) {
  const store = createGuestStore({
    phase: 'ready',
    company: company({ language: language === 'ar' ? 'arabic' : 'english' }),
    language,
    screen: which,
    callType: 'video',
    remoteFeeds: [],
    ...state,
  });
  render(<Wrapper store={store}>{which === 'waiting' ? <WaitingScreen /> : <OngoingScreen />}</Wrapper>);
}

describe('the guest’s notice while its call is taken back', () => {
  it.each(['waiting', 'ongoing'] as const)('when the %s screen takes the call back, then a polite live notice says the call is reconnecting', (which) => {
    renderScreen(which, 'en', { takingCallBack: true });
    const notice = screen.getByTestId('media-notice');
    expect(notice.getAttribute('role')).toBe('status');
    expect(notice.getAttribute('data-notice')).toBe('takingCallBack');
    expect(notice.textContent).toBe('Reconnecting your call…');
  });

  it('when the page is Arabic, then the notice is in Arabic', async () => {
    await ensureLanguage('ar');
    renderScreen('waiting', 'ar', { takingCallBack: true });
    await waitFor(() => expect(screen.getByTestId('media-notice').textContent).toBe('جارٍ إعادة وصل مكالمتك…'));
  });

  it('when the video service is waited for meanwhile, then that is said instead', () => {
    renderScreen('waiting', 'en', { takingCallBack: true, mediaNotice: 'waitingForServer' });
    expect(screen.getByTestId('media-notice').getAttribute('data-notice')).toBe('waitingForServer');
  });

  it('when the call is back, then no notice is shown', () => {
    renderScreen('ongoing', 'en', { takingCallBack: false });
    expect(screen.queryByTestId('media-notice')).toBeNull();
  });
});
