// The agent's notice of a weak line (features/call/LineNotice.tsx, docs/protocol.md "Line steps"): its own
// video paused or smaller, or the guest's paused, in a polite live region, in English and Arabic.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { initialCallStatus, type CallStatus } from '@lobby/call';
import { LineNotice } from '../src/features/call/LineNotice.tsx';
import { inCallStore, Wrapper } from './helpers.tsx';

afterEach(cleanup);

function renderNotice(language: 'en' | 'ar', status: Partial<CallStatus>) {
  const store = inCallStore(language, {});
  store.setState((s) => ({ inCall: { ...s.inCall, status: { ...initialCallStatus(), ...status } } }));
  render(
    <Wrapper store={store}>
      <LineNotice />
    </Wrapper>,
  );
}

describe('the agent’s notice of a weak line', () => {
  it('when the guest’s line pauses the guest’s video, then the agent is told why the picture stands still', () => {
    renderNotice('en', { weakLineJIDs: [{ jid: 'guest@lobby.local', step: 'audioOnly' }] });
    const notice = screen.getByRole('status');
    expect(notice.getAttribute('data-testid')).toBe('agent-line-notice');
    expect(notice.textContent).toBe("The guest's connection is weak: their video is paused to keep the sound.");
  });

  it('when its own line makes its video smaller, then a softer notice says so, in Arabic too', () => {
    renderNotice('ar', { lineStep: 'reduced' });
    expect(screen.getByRole('status').textContent).toBe('اتصالك ضعيف: يُرسَل الفيديو الخاص بك بحجم أصغر للحفاظ على الصوت.');
  });

  it('when the line is good, then nothing is said', () => {
    renderNotice('en', {});
    expect(screen.queryByTestId('agent-line-notice')).toBeNull();
  });
});
