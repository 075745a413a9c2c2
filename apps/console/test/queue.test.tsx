import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { QueueEntry } from '@lobby/call';
import { createConsoleStore } from '../src/state/store.ts';
import { WorkspacePage } from '../src/features/workspace/WorkspacePage.tsx';
import { agent, waitingGuest, Wrapper } from './helpers.tsx';

const now = Date.now();
// The wait times are computed from the clock at render: freeze it, or a slow machine shows 5:01 for 5:00.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const entry = (callId: string, waitedMs: number, callType: QueueEntry['callType'] = 'video'): QueueEntry =>
  waitingGuest(callId, now - waitedMs, { callType });

function renderWorkspace() {
  const store = createConsoleStore({ session: 'authenticated', user: agent });
  store.getState().setQueue([entry('b', 10_000), entry('a', 300_000, 'voice'), entry('c', 60_000)]);
  render(
    <Wrapper store={store}>
      <WorkspacePage />
    </Wrapper>,
  );
  return store;
}

describe('queue panel', () => {
  it('when guests are waiting, then they are listed longest wait first', () => {
    renderWorkspace();
    const items = screen.getAllByTestId('queue-item');
    expect(items.map((i) => i.getAttribute('data-call-id'))).toEqual(['a', 'c', 'b']);
    expect(items[0]?.getAttribute('data-kind')).toBe('voice');
    expect(items[0]?.textContent).toContain('Sales');
    expect(screen.getAllByTestId('queue-wait')[0]?.textContent).toContain('5:00');
  });

  it('when guests are waiting, then the panel says the longest wait; with nobody waiting it says none', () => {
    const store = renderWorkspace();
    expect(screen.getByTestId('queue-longest').textContent).toBe('Longest wait 5:00');
    act(() => store.getState().upsertQueueEntry(entry('d', 600_000)));
    expect(screen.getByTestId('queue-longest').textContent).toBe('Longest wait 10:00');
    expect(screen.getByTestId('queue-longest').getAttribute('data-level')).not.toBe('ok');
    act(() => store.getState().setQueue([]));
    expect(screen.queryByTestId('queue-longest')).toBeNull();
  });

  it('when a guest is added later, then the order still follows the wait', () => {
    const store = renderWorkspace();
    store.getState().upsertQueueEntry(entry('d', 600_000));
    expect(store.getState().queue.map((q) => q.callId)).toEqual(['d', 'a', 'c', 'b']);
  });

  it('when the agent answers, then the call area shows the call and answering is disabled', () => {
    const store = renderWorkspace();
    fireEvent.click(screen.getAllByTestId('answer-button')[1]!);
    expect(store.getState().activeCall?.callId).toBe('c');
    expect(screen.getByTestId('active-call').getAttribute('data-call-id')).toBe('c');
    expect(screen.getByTestId('remote-video')).toBeTruthy();
    expect(screen.getAllByTestId('answer-button').every((b) => (b as HTMLButtonElement).disabled)).toBe(true);
    fireEvent.click(screen.getByTestId('agent-hangup-button'));
    expect(store.getState().activeCall).toBeNull();
    expect(screen.getByTestId('call-idle')).toBeTruthy();
  });

  it('when nobody waits, then the empty state says so', () => {
    const store = createConsoleStore({ session: 'authenticated', user: agent });
    render(
      <Wrapper store={store}>
        <WorkspacePage />
      </Wrapper>,
    );
    expect(screen.getByTestId('queue-empty').textContent).toContain('No guests waiting');
  });
});
