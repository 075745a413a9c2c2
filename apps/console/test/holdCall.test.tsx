// The agent's side of a held call: while the call is on hold the guest's tile says on hold (it used
// to spin "Connecting…") and the timer keeps the call's running time, in English and in Arabic.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { initialCallStatus } from '@lobby/call';
import { CallArea } from '../src/features/call/CallArea.tsx';
import { inCallStore, Wrapper } from './helpers.tsx';

afterEach(cleanup);

function renderHeld(language: 'en' | 'ar') {
  // on hold: the media room is left, no stream from the guest
  const store = inCallStore(language, { held: true, status: { ...initialCallStatus(), peerCall: 'Paused' } }, 75_000);
  render(
    <Wrapper store={store}>
      <CallArea />
    </Wrapper>,
  );
}

describe('the agent on hold', () => {
  it('when the call is on hold, then the guest tile and the timer say on hold and the time runs on', () => {
    renderHeld('en');
    expect(screen.getByTestId('remote-on-hold').textContent).toBe('On hold');
    expect(screen.getByTestId('active-call').textContent).not.toContain('Connecting');
    const timer = screen.getByTestId('agent-call-timer');
    expect(timer.textContent).toContain('On hold');
    expect(timer.querySelector('time')?.textContent).toMatch(/^1:1\d$/);
  });

  it('when the console is Arabic, then on hold is said in Arabic', async () => {
    renderHeld('ar');
    await waitFor(() => expect(screen.getByTestId('remote-on-hold').textContent).toBe('في الانتظار'));
    expect(screen.getByTestId('agent-call-timer').textContent).toContain('في الانتظار');
    expect(screen.getByTestId('active-call').textContent).not.toContain('جارٍ الاتصال');
  });
});
