// The waiting guest's place and estimate (docs/guest-journey.md "Place in the queue and estimate"): the
// words in English and Arabic, and the watch that asks the server while the call waits.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import type { WaitPlace } from '@lobby/contracts';
import { WaitPlaceLine } from '../src/features/waiting/WaitPlaceLine.tsx';
import { watchWaitPlace, WAIT_POLL_MS } from '../src/features/waiting/waitPlace.ts';
import { createGuestStore } from '../src/state/store.ts';
import { ensureLanguage } from '../src/i18n/index.ts';
import { company, Wrapper } from './helpers.tsx';

afterEach(cleanup);

function line(language: 'en' | 'ar', waitPlace: WaitPlace | null) {
  const store = createGuestStore({
    phase: 'ready',
    company: company({ language: language === 'ar' ? 'arabic' : 'english' }),
    language,
    screen: 'waiting',
    waitPlace,
  });
  render(
    <Wrapper store={store}>
      <WaitPlaceLine />
    </Wrapper>,
  );
  return { store, el: screen.getByTestId('wait-place') };
}

describe('the place in the queue and the estimate', () => {
  it('when the guest is third with an estimate of four minutes, then "You are 3rd in line · about 4 minutes", in a polite live region', () => {
    const { el } = line('en', { waiting: true, position: 3, estimate: { kind: 'minutes', minutes: 4 } });
    expect(el.textContent).toBe('You are 3rd in line · about 4 minutes');
    expect(el.getAttribute('aria-live')).toBe('polite');
  });

  it('when the place changes, then the words do; English ordinals and plurals read right', () => {
    const { store, el } = line('en', { waiting: true, position: 1, estimate: { kind: 'underMinute' } });
    expect(el.textContent).toBe('You are next in line · less than a minute');
    const cases: Array<[WaitPlace, string]> = [
      [{ waiting: true, position: 2, estimate: { kind: 'minutes', minutes: 1 } }, 'You are 2nd in line · about 1 minute'],
      [{ waiting: true, position: 11, estimate: { kind: 'fewMinutes' } }, 'You are 11th in line · a few minutes'],
      [{ waiting: true, position: 21, estimate: { kind: 'longWait', atLeastMinutes: 12 } }, 'You are 21st in line · more than 12 minutes'],
      [{ waiting: true, position: 4, estimate: null }, 'You are 4th in line'],
      [{ waiting: true, position: null, estimate: { kind: 'minutes', minutes: 6 } }, 'Estimated wait: about 6 minutes'],
      [{ waiting: true, position: null, estimate: null }, ''],
    ];
    for (const [place, words] of cases) {
      act(() => store.setState({ waitPlace: place }));
      expect(el.textContent).toBe(words);
    }
  });

  it('when the page is in Arabic, then the place and the Arabic plural of minutes', async () => {
    await ensureLanguage('ar');
    const { store, el } = line('ar', { waiting: true, position: 3, estimate: { kind: 'minutes', minutes: 4 } });
    await waitFor(() => expect(el.textContent).toBe('ترتيبك في قائمة الانتظار: 3 · حوالي 4 دقائق'));
    act(() => store.setState({ waitPlace: { waiting: true, position: 1, estimate: { kind: 'minutes', minutes: 2 } } }));
    expect(el.textContent).toBe('أنت التالي في قائمة الانتظار · حوالي دقيقتين');
    act(() => store.setState({ waitPlace: { waiting: true, position: 2, estimate: { kind: 'minutes', minutes: 15 } } }));
    expect(el.textContent).toBe('ترتيبك في قائمة الانتظار: 2 · حوالي 15 دقيقة');
  });
});

describe('watchWaitPlace', () => {
  it('asks at once and then every poll, keeps the last answer when an ask fails, and stops when told', async () => {
    const answers: Array<WaitPlace | Error> = [
      { waiting: true, position: 3, estimate: null },
      new Error('offline'),
      { waiting: true, position: 2, estimate: null },
    ];
    const asked: unknown[] = [];
    const told: WaitPlace[] = [];
    let tick: (() => void) | null = null;
    const stop = watchWaitPlace({
      token: 'tok',
      callId: 'g0123456789abcdef--x',
      onPlace: (p) => told.push(p),
      request: ((path: string, options: unknown) => {
        asked.push([path, options]);
        const next = answers.shift();
        return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
      }) as never,
      setInterval: (fn, ms) => {
        expect(ms).toBe(WAIT_POLL_MS);
        tick = fn;
        return 1;
      },
      clearInterval: () => (tick = null),
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(asked[0]).toEqual(['/call-report/wait', { token: 'tok', query: { call_id: 'g0123456789abcdef--x' } }]);
    expect(told.map((p) => p.position)).toEqual([3]);
    tick!();
    await new Promise((r) => setTimeout(r, 0));
    expect(told.map((p) => p.position)).toEqual([3]);
    tick!();
    await new Promise((r) => setTimeout(r, 0));
    expect(told.map((p) => p.position)).toEqual([3, 2]);
    stop();
    expect(tick).toBeNull();
  });
});
