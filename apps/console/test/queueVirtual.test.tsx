/**
 * The queue at thousands (docs/performance.md "Waiting guests"): only the rows in view and a few more are
 * drawn, the count and the rows' positions still say the whole length, the window follows the scroll
 * position, and only drawn rows ask for their details, a bounded number at once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { QueueEntry } from '@lobby/call';
import { createConsoleStore } from '../src/state/store.ts';
import { WorkspacePage } from '../src/features/workspace/WorkspacePage.tsx';
import { OVERSCAN_ROWS, windowOf } from '../src/features/queue/VirtualList.tsx';
import { MAX_IN_FLIGHT, SETTLE_MS } from '../src/features/queue/detailsLoader.ts';
import { agent, waitingGuest, Wrapper } from './helpers.tsx';

// each drawn row asks the server for its call's details: no server here; a request ends only when aborted
let detailRequests: string[] = [];
beforeEach(() => {
  detailRequests = [];
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
    detailRequests.push(String(url));
    return new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const now = Date.now();
const entry = (i: number): QueueEntry => waitingGuest(`c${String(i).padStart(5, '0')}`, now - 10_000_000 + i);

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
    expect(rows.length).toBeLessThanOrEqual(10);
    expect(rows[0]?.getAttribute('data-call-id')).toBe('c00000');
    expect(rows[0]?.getAttribute('aria-posinset')).toBe('1');
    expect(rows[0]?.getAttribute('aria-setsize')).toBe('2000');
  });
});

describe('queue in a fixed viewport', () => {
  // happy-dom lays nothing out: the queue's view is given a height of 500 px, rows keep their estimate
  // (QueuePanel: 110 px and a gap of 4, so a row starts every 114 px and 5 rows meet the view)
  const VIEW_PX = 500;
  const ROW_PX = 114;
  beforeEach(() => {
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.dataset.testid === 'virtual-view' ? VIEW_PX : 0;
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('when 5,000 guests wait and the agent scrolls, then only the rows in view and the overscan are drawn, and a bounded number of them ask for details', async () => {
    const store = createConsoleStore({ session: 'authenticated', user: agent });
    store.getState().setQueue(Array.from({ length: 5000 }, (_, i) => entry(i)));
    render(
      <Wrapper store={store}>
        <WorkspacePage />
      </Wrapper>,
    );
    const drawn = () => screen.getAllByTestId('queue-item').map((row) => row.getAttribute('data-call-id'));
    // at the top: the 5 rows in view and the overscan below
    expect(drawn()).toEqual(Array.from({ length: 5 + OVERSCAN_ROWS }, (_, i) => entry(i).callId));
    expect(detailRequests).toEqual([]); // nothing asked before the rows settle
    await act(() => new Promise((resolve) => setTimeout(resolve, SETTLE_MS + 50)));
    expect(detailRequests).toHaveLength(MAX_IN_FLIGHT);

    // scrolled to row 3,000: the rows in view and the overscan on each side, the earlier requests cancelled
    const view = screen.getByTestId('virtual-view');
    view.scrollTop = 3000 * ROW_PX;
    fireEvent.scroll(view);
    expect(drawn()).toEqual(Array.from({ length: 5 + 2 * OVERSCAN_ROWS }, (_, i) => entry(3000 - OVERSCAN_ROWS + i).callId));
    await act(() => new Promise((resolve) => setTimeout(resolve, SETTLE_MS + 50)));
    expect(detailRequests).toHaveLength(2 * MAX_IN_FLIGHT);
    expect(detailRequests.slice(MAX_IN_FLIGHT).every((url) => /c0(29|30)\d\d$/.test(url))).toBe(true);
  });
});

describe('windowOf', () => {
  const heights = Array.from({ length: 1000 }, () => 100);

  it('when scrolled to the middle, then the rows in view and the overscan are drawn and padding stands for the rest', () => {
    const w = windowOf(heights, 4, { top: 52_000, height: 500 });
    // a row starts every 104 px: row 500 is at 52,000 and rows 500..504 meet the 500 px view
    expect(w).toMatchObject({ first: 500 - OVERSCAN_ROWS, last: 505 + OVERSCAN_ROWS });
    expect(w.before).toBe(w.first * 104);
    expect(w.before + (w.last - w.first) * 104 + w.after).toBe(1000 * 104);
  });

  it('when scrolled to the end, then the last rows and the overscan above them are drawn', () => {
    expect(windowOf(heights, 4, { top: 1000 * 104 - 500, height: 500 })).toMatchObject({ first: 995 - OVERSCAN_ROWS, last: 1000, after: 0 });
  });

  it('when the list has no height yet, then the first rows are drawn', () => {
    expect(windowOf(heights, 4, { top: 0, height: 0 })).toMatchObject({ first: 0, last: 10, before: 0 });
  });

  it('when a row was measured taller, then the rows after it move down', () => {
    const measured = [...heights];
    measured[0] = 1000;
    // at 2,000 px: row 19 of 104 px each (19 * 104 = 1,976), or the tall one and 9 (1,004 + 9 * 104 = 1,940)
    expect(windowOf(heights, 4, { top: 2000, height: 100 }).first).toBe(19 - OVERSCAN_ROWS);
    expect(windowOf(measured, 4, { top: 2000, height: 100 }).first).toBe(10 - OVERSCAN_ROWS);
  });
});
