// The guest's notice of a weak line (features/call/LineNotice.tsx, docs/protocol.md "Line steps"): its own
// video paused or smaller, or the agent's paused, in a polite live region, in English and Arabic.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { initialCallStatus, type CallStatus } from '@lobby/call';
import { LineNotice } from '../src/features/call/LineNotice.tsx';
import { ensureLanguage } from '../src/i18n/index.ts';
import { createGuestStore } from '../src/state/store.ts';
import { company, Wrapper } from './helpers.tsx';

afterEach(cleanup);

function renderNotice(language: 'en' | 'ar', status: Partial<CallStatus>) {
  const store = createGuestStore({ phase: 'ready', company: company({ language: language === 'ar' ? 'arabic' : 'english' }), language, screen: 'ongoing', callType: 'video', remoteFeeds: [] });
  store.getState().setInCall({ status: { ...initialCallStatus(), ...status } });
  render(
    <Wrapper store={store}>
      <LineNotice />
    </Wrapper>,
  );
}

describe('the guest’s notice of a weak line', () => {
  it('when its own line pauses its video, then a status says the sound is kept', () => {
    renderNotice('en', { lineStep: 'audioOnly' });
    const notice = screen.getByRole('status');
    expect(notice.getAttribute('data-notice')).toBe('ownPaused');
    expect(notice.textContent).toBe('Your connection is weak: video paused to keep the sound.');
  });

  it('when the agent’s line pauses the agent’s video, then the guest is told, in Arabic too', async () => {
    await ensureLanguage('ar');
    renderNotice('ar', { weakLineJIDs: [{ jid: 'agent@lobby.local', step: 'audioOnly' }] });
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('اتصال الموظف ضعيف: أُوقف الفيديو الخاص به مؤقتًا للحفاظ على الصوت.'));
  });

  it('when the line is good, or only the agent’s video is smaller, then nothing is said', () => {
    renderNotice('en', { weakLineJIDs: [{ jid: 'agent@lobby.local', step: 'reduced' }] });
    expect(screen.queryByTestId('line-notice')).toBeNull();
  });
});
