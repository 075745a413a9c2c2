/**
 * The queue at thousands (issue 16): only the rows in view are drawn, the count and the rows' positions
 * still say the whole length, and the window follows the scroll position.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { createConsoleStore, type QueueEntry } from '../src/state/store.ts';
import { WorkspacePage } from '../src/features/workspace/WorkspacePage.tsx';
import { windowOf } from '../src/features/queue/VirtualList.tsx';
import { agent, Wrapper } from './helpers.tsx';

// each drawn row asks the server for its call's details: no server here, and the rows are what is tested
beforeEach(() => vi.stubGlobal('fetch', () => new Promise(() => undefined)));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const now = Date.now();
const entry = (i: number): QueueEntry => ({
  callId: `c${String(i).padStart(5, '0')}`,
  guestName: `Guest ${i}`,
  kind: 'video',
  assignmentId: 1,
  assignmentName: 'Sales',
  waitingSince: now - 10_000_000 + i,
});

describe('queue of thousands', () => {
  it('when 2,000 guests wait, then the panel counts 2,000 but draws only a window of rows, each knowing its place', () => {
    const store = createConsoleStore({ session: 'authenticated', user: agent });
    store.getState().setQueue(Array.from({ length: 2000 }, (_, i) => entry(i)));
    render(
      <Wrapper store={store}>
        <WorkspacePage />
      </Wrapper>,
    );
    expect(screen.getByTestId('queue-count').textContent).toContain('2000');
    const rows = screen.getAllByTestId('queue-item');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(30);
    expect(rows[0]?.getAttribute('data-call-id')).toBe('c00000');
    expect(rows[0]?.getAttribute('aria-posinset')).toBe('1');
    expect(rows[0]?.getAttribute('aria-setsize')).toBe('2000');
  });
});

describe('windowOf', () => {
  const heights = Array.from({ length: 1000 }, () => 100);

  it('when scrolled to the middle, then the rows in view and the overscan are drawn and padding stands for the rest', () => {
    const w = windowOf(heights, 4, { top: 52_000, height: 500 });
    // a row starts every 104 px: row 500 is at 52,000; 600 px of overscan each side
    expect(w.first).toBe(Math.floor((52_000 - 600) / 104));
    expect(w.before).toBe(w.first * 104);
    expect(w.last).toBeGreaterThan(500 + 500 / 104);
    expect(w.last).toBeLessThan(520);
    expect(w.before + (w.last - w.first) * 104 + w.after).toBe(1000 * 104);
  });

  it('when the list has no height yet, then the first rows are drawn', () => {
    expect(windowOf(heights, 4, { top: 0, height: 0 })).toMatchObject({ first: 0, last: 30, before: 0 });
  });

  it('when a row was measured taller, then the rows after it move down', () => {
    const measured = [...heights];
    measured[0] = 1000;
    // 600 px of overscan above 2,000: rows ending before 1,400 are skipped (13 of 104 px, or the tall one and 3)
    expect(windowOf(heights, 4, { top: 2000, height: 100 }).first).toBe(13);
    expect(windowOf(measured, 4, { top: 2000, height: 100 }).first).toBe(4);
  });
});
