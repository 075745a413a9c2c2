// The agent's notice over the call while its media is in trouble or its guest changes page on the website
// (features/call/MediaNotice.tsx, docs/widget.md "Moving between pages"), in English and Arabic.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import type { MediaNotice as Notice } from '@lobby/call';
import { CallArea } from '../src/features/call/CallArea.tsx';
import { inCallStore, Wrapper } from './helpers.tsx';

afterEach(cleanup);

function renderCall(language: 'en' | 'ar', state: { mediaNotice?: Notice; guestChangingPage?: boolean }) {
  const store = inCallStore(language, {});
  store.setState(state);
  render(
    <Wrapper store={store}>
      <CallArea />
    </Wrapper>,
  );
}

describe('the agent’s notice while the guest changes page', () => {
  it('when the guest changes page, then the call area says so in a polite live notice', () => {
    renderCall('en', { guestChangingPage: true });
    const notice = screen.getByRole('status');
    expect(notice.getAttribute('data-testid')).toBe('agent-media-notice');
    expect(notice.getAttribute('data-notice')).toBe('guestChangingPage');
    expect(notice.textContent).toBe('The guest is changing page on the website. The call comes back in a moment…');
  });

  it('when the console is Arabic, then the notice is in Arabic', () => {
    renderCall('ar', { guestChangingPage: true });
    expect(screen.getByTestId('agent-media-notice').textContent).toBe('ينتقل الضيف إلى صفحة أخرى على الموقع. ستعود المكالمة بعد لحظات…');
  });

  it('when the changing page’s media stalls as well, then the page change is said, not the interrupted connection', () => {
    renderCall('en', { guestChangingPage: true, mediaNotice: 'peerReconnecting' });
    expect(screen.getByTestId('agent-media-notice').getAttribute('data-notice')).toBe('guestChangingPage');
  });

  it('when the video service is unreachable meanwhile, then that is said first', () => {
    renderCall('en', { guestChangingPage: true, mediaNotice: 'serverUnreachable' });
    expect(screen.getByTestId('agent-media-notice').getAttribute('data-notice')).toBe('serverUnreachable');
  });

  it('when the guest is back, then no notice is shown', () => {
    renderCall('en', { guestChangingPage: false });
    expect(screen.queryByTestId('agent-media-notice')).toBeNull();
  });
});
