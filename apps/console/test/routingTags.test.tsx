import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18n from 'i18next';
import '../src/i18n/index.ts';
import { AppProviders } from '../src/app/App.tsx';
import { placeholderAgentActions } from '../src/features/desk/sessionActions.ts';
import type { QueueEntry } from '@lobby/call';
import { createConsoleStore } from '../src/state/store.ts';
import { RoutingTags } from '../src/features/routing/RoutingTags.tsx';
import { agent, waitingGuest } from './helpers.tsx';

const now = 1_700_000_000_000;

beforeEach(() => {
  // the countdown reads the clock as well as the ticking `now`: both at the same instant here
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
});

afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  await i18n.changeLanguage('en');
});
const base: QueueEntry = waitingGuest('g1--a', now, { lobby: { userType: 'guest', appointmentID: '', name: 'Guest A' } });

function renderTags(entry: QueueEntry, language: 'en' | 'ar' = 'en') {
  const store = createConsoleStore({ session: 'authenticated', user: agent, language });
  const decline = vi.fn();
  render(
    <AppProviders store={store} agentActions={{ ...placeholderAgentActions(store), decline }}>
      <RoutingTags entry={entry} now={now} />
    </AppProviders>,
  );
  return decline;
}

describe('routing tags on a queue entry', () => {
  it('when the call is an ordinary one, then nothing is shown', () => {
    renderTags(base);
    expect(screen.queryByTestId('appointment-badge')).toBeNull();
    expect(screen.queryByTestId('offer-countdown')).toBeNull();
  });

  it('when the call is an appointment, then the badge says so', () => {
    renderTags({ ...base, appointmentID: '42' });
    expect(screen.getByTestId('appointment-badge').textContent).toContain('Appointment');
  });

  it('when round robin offers the call, then the seconds left show and Decline passes it on', () => {
    const decline = renderTags({ ...base, offerExpiresAt: now + 12_400 });
    expect(screen.getByTestId('offer-countdown').getAttribute('data-seconds')).toBe('13');
    expect(screen.getByTestId('offer-countdown').textContent).toContain('13 s left');
    fireEvent.click(screen.getByRole('button', { name: 'Decline Guest A (offer it to the next agent)' }));
    expect(decline).toHaveBeenCalledWith('g1--a');
  });

  it('when the last tick is older than the offer, then the countdown counts from the clock, not from the tick', () => {
    vi.setSystemTime(now + 3_000); // the offer arrived between two ticks of `now`
    renderTags({ ...base, offerExpiresAt: now + 3_000 + 20_000 });
    expect(screen.getByTestId('offer-countdown').getAttribute('data-seconds')).toBe('20');
  });

  it('when the console is in Arabic, then the offer and the badge are in Arabic', () => {
    renderTags({ ...base, appointmentID: '42', offerExpiresAt: now + 5_000 }, 'ar');
    expect(screen.getByTestId('appointment-badge').textContent).toContain('موعد');
    expect(screen.getByTestId('offer-countdown').textContent).toContain('· 5 ث'); // Arabic's unit, its locale's digits
    expect(screen.getByTestId('decline-button').textContent).toBe('رفض');
  });
});
