import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { AppRoutes } from '../src/app/App.tsx';
import { createConsoleStore } from '../src/state/store.ts';
import { agent, Wrapper } from './helpers.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

describe('opening hours page', () => {
  it('when the saved hours are still loading, then "always open" cannot be changed (their arrival would undo the choice); once in, it shows them and can', async () => {
    // the server answers the schedule only when the test says so
    let answer: (schedule: unknown) => void = () => undefined;
    const schedule = new Promise<unknown>((resolve) => (answer = resolve));
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => {
        if (url.endsWith('/admin/schedule')) return schedule.then((s) => json({ data: { schedule: s } }));
        return Promise.resolve(json({ data: { name: 'Acme' } }));
      }),
    );
    const store = createConsoleStore({ session: 'authenticated', user: { ...agent, id: 2, name: 'Ada Admin', role: 'admin' as const } });
    render(
      <Wrapper store={store} path="/admin/schedule">
        <AppRoutes />
      </Wrapper>,
    );
    const box = await screen.findByTestId<HTMLInputElement>('schedule-always-open');
    expect(box.disabled).toBe(true);

    answer({ timezone: 'Asia/Riyadh', weekly: [{ day: 1, from: '09:00', to: '17:00' }], closedDays: [] });
    await waitFor(() => expect(box.disabled).toBe(false));
    await waitFor(() => expect(box.checked).toBe(false));
  });
});
