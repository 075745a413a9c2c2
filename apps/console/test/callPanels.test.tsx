// The agent's side panels over the call (chat; settings): the chat button's name says how many messages are
// unread, in English and Arabic; Escape on the button that opened a panel closes it and keeps the focus there.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { initialCallStatus, type CallStatus } from '@lobby/call';
import { CallArea } from '../src/features/call/CallArea.tsx';
import type { ConsoleStore } from '../src/state/store.ts';
import type { ConsoleDesk } from '../src/state/agentActions.ts';
import { placeholderAgentActions } from '../src/features/desk/sessionActions.ts';
import { inCallStore, Wrapper } from './helpers.tsx';

afterEach(cleanup);

/** what the settings panel told the desk of noise suppression, in order */
const noiseSuppression: boolean[] = [];

/** An engine whose panel switches move the store's status, as the desk's snapshots do. */
function fakeEngine(store: ConsoleStore): ConsoleDesk {
  const patch = (change: Partial<CallStatus>) =>
    store.setState((s) => ({ inCall: { ...s.inCall, status: { ...(s.inCall.status ?? initialCallStatus()), ...change } } }));
  const nothing = () => Promise.resolve();
  return {
    setProfileImageUrl: () => undefined,
    sendChat: () => undefined,
    sendFile: nothing,
    setChatOpen: (open) => patch({ isChatOpen: open, ...(open ? { unreadMessages: 0 } : {}) }),
    setZoomed: () => undefined,
    startScreenShare: nothing,
    stopScreenShare: nothing,
    hold: nothing,
    resume: () => undefined,
    join: nothing,
    changeDevices: nothing,
    setNoiseSuppression: (on) => {
      noiseSuppression.push(on);
      return Promise.resolve();
    },
    setDeviceConfigOpen: (open) => patch({ deviceConfigOpen: open }),
    setMainUser: () => undefined,
    transferTargets: () => Promise.resolve({ agents: [], assignments: [] }),
    transfer: nothing,
    acceptTransfer: nothing,
  };
}

function renderCall(language: 'en' | 'ar', status: Partial<CallStatus> = {}) {
  const store = inCallStore(language, { status: { ...initialCallStatus(), ...status } });
  const desk = fakeEngine(store);
  render(
    <Wrapper store={store} agentActions={{ ...placeholderAgentActions(store), desk: () => desk }}>
      <CallArea />
    </Wrapper>,
  );
  return store;
}

describe('the agent chat button', () => {
  it('when two messages are unread, then its accessible name says so', async () => {
    renderCall('en', { unreadMessages: 2 });
    await waitFor(() => expect(screen.getByTestId('agent-chat-toggle-button').getAttribute('aria-label')).toBe('Open chat, 2 unread messages'));
    expect(screen.getByTestId('agent-chat-unread').textContent).toBe('2');
  });

  it('when the console is Arabic, then the name says the unread count in Arabic', async () => {
    renderCall('ar', { unreadMessages: 2 });
    await waitFor(() => expect(screen.getByTestId('agent-chat-toggle-button').getAttribute('aria-label')).toBe('فتح المحادثة، رسالتان غير مقروءتين'));
  });

  it('when nothing is unread, then it is named plainly', async () => {
    renderCall('en');
    await waitFor(() => expect(screen.getByTestId('agent-chat-toggle-button').getAttribute('aria-label')).toBe('Open chat'));
  });
});

describe('the agent call panels and Escape', () => {
  it.each([
    ['chat', 'agent-chat-toggle-button', 'chat-panel'],
    ['settings', 'agent-settings-button', 'agent-settings-panel'],
  ])('when the %s panel was opened by its button and the focus is still there, then Escape closes it and the focus stays on the button', async (_name, buttonId, panelId) => {
    renderCall('en');
    const button = await screen.findByTestId(buttonId);
    button.focus();
    fireEvent.click(button);
    expect(screen.getByTestId(panelId)).toBeTruthy();

    act(() => {
      fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    });

    expect(screen.queryByTestId(panelId)).toBeNull();
    expect(document.activeElement).toBe(button);
  });
});

describe('the agent noise-suppression switch', () => {
  it('when the agent opens the call settings, then noise suppression is on by default; turning it off tells the desk and is remembered', async () => {
    localStorage.removeItem('lobby.console.noiseSuppression');
    noiseSuppression.length = 0;
    renderCall('en');
    fireEvent.click(await screen.findByTestId('agent-settings-button'));
    const toggle = screen.getByRole<HTMLInputElement>('switch', { name: 'Noise suppression' });
    expect(toggle.checked).toBe(true);
    fireEvent.click(toggle);
    expect(toggle.checked).toBe(false);
    expect(noiseSuppression).toEqual([false]);
    expect(localStorage.getItem('lobby.console.noiseSuppression')).toBe('off');
  });

  it('when the console is Arabic, then the switch is named in Arabic', async () => {
    renderCall('ar');
    fireEvent.click(await screen.findByTestId('agent-settings-button'));
    expect(await screen.findByRole('switch', { name: 'تقليل الضوضاء' })).toBeTruthy();
  });
});
