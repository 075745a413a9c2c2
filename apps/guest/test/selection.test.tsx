import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createGuestStore } from '../src/state/store.ts';
import { SelectionScreen } from '../src/features/selection/SelectionScreen.tsx';
import { company, Wrapper } from './helpers.tsx';
import type { Company } from '../src/api/company.ts';

afterEach(cleanup);

function renderSelection(overrides: Partial<Company>) {
  const store = createGuestStore({ phase: 'ready', company: company(overrides), screen: 'selection' });
  render(
    <Wrapper store={store}>
      <SelectionScreen />
    </Wrapper>,
  );
  return store;
}

describe('selection screen', () => {
  it('when callType is userSelect, then both video and voice calls are offered', () => {
    renderSelection({ callType: 'userSelect' });
    const kinds = screen.getAllByTestId('call-button').map((b) => b.getAttribute('data-call-kind'));
    expect(kinds).toEqual(['video', 'voice']);
    expect(screen.getByText('Start video call')).toBeTruthy();
    expect(screen.getByText('Start voice call')).toBeTruthy();
  });

  it('when callType is voice, then only a voice call button is shown', () => {
    renderSelection({ callType: 'voice' });
    const buttons = screen.getAllByTestId('call-button');
    expect(buttons).toHaveLength(1);
    expect(buttons[0]?.getAttribute('data-call-kind')).toBe('voice');
    expect(screen.queryByText('Start video call')).toBeNull();
  });

  it('when the guest presses call, then the demo actions move to waiting with that kind', () => {
    const store = renderSelection({ callType: 'video' });
    fireEvent.click(screen.getByTestId('call-button'));
    expect(store.getState().screen).toBe('waiting');
    expect(store.getState().callType).toBe('video');
  });

  it('when there are several assignments and none is chosen, then calling asks for one first', () => {
    const store = renderSelection({
      assignments: [
        { id: 1, name: 'Sales', type: 'queue' },
        { id: 2, name: 'Support', type: 'queue' },
      ],
    });
    fireEvent.click(screen.getAllByTestId('call-button')[0]!);
    expect(store.getState().screen).toBe('selection');
    expect(screen.getByRole('alert').textContent).toContain('Choose a topic first');
    fireEvent.click(screen.getByLabelText('Support'));
    expect(store.getState().assignmentId).toBe(2);
    fireEvent.click(screen.getAllByTestId('call-button')[0]!);
    expect(store.getState().screen).toBe('waiting');
  });
});
