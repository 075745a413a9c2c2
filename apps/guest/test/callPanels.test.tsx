// The guest's side panels over the call (chat; camera and sound): Escape closes the open one from the
// button that opened it as well as from inside, and gives the focus back to that button; the chat button
// says how many messages are unread; the chat reads oldest to newest, the newest by the input at the bottom.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { initialCallStatus, type CallStatus } from '@lobby/call';
import { OngoingScreen } from '../src/features/ongoing/OngoingScreen.tsx';
import { createGuestStore, type GuestStore } from '../src/state/store.ts';
import type { GuestCallEngine } from '../src/state/callActions.ts';
import { demoCallActions } from '../src/app/demoCallActions.ts';
import { ensureLanguage } from '../src/i18n/index.ts';
import { company, Wrapper } from './helpers.tsx';

afterEach(cleanup);

type ChatMessages = CallStatus['chatMessages'];

/** what the panel told the engine of noise suppression, in order */
const noiseSuppression: boolean[] = [];

/** An engine whose panel switches move the store's status, as the real engine's snapshots do. */
function fakeEngine(store: GuestStore): GuestCallEngine {
  const patch = (change: Partial<CallStatus>) => {
    const status = store.getState().inCall.status ?? initialCallStatus();
    store.getState().setInCall({ status: { ...status, ...change } });
  };
  return {
    sendChat: () => undefined,
    sendFile: () => Promise.resolve(),
    fetchFile: () => Promise.resolve(new Blob()),
    setChatOpen: (open) => patch({ isChatOpen: open, ...(open ? { unreadMessages: 0 } : {}) }),
    setZoomed: () => undefined,
    startScreenShare: () => Promise.resolve(),
    stopScreenShare: () => Promise.resolve(),
    changeDevices: () => Promise.resolve(),
    setNoiseSuppression: (on) => {
      noiseSuppression.push(on);
      return Promise.resolve();
    },
    setDeviceConfigOpen: (open) => patch({ deviceConfigOpen: open }),
    setCallVolume: (callVolume) => patch({ callVolume }),
    setMainUser: () => undefined,
  };
}

/** A remote feed as the engine hands it, with one audio track and no video. */
function fakeRemote(feedId: string, display: string) {
  const track = { id: `audio-${feedId}`, kind: 'audio', readyState: 'live' };
  const stream = {
    getAudioTracks: () => [track],
    getVideoTracks: () => [],
    getTracks: () => [track],
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  } as unknown as MediaStream;
  return { feedId, display, stream };
}

function renderCall(language: 'en' | 'ar', status: Partial<CallStatus> = {}, remoteFeeds: ReturnType<typeof fakeRemote>[] = []) {
  const store = createGuestStore({
    phase: 'ready',
    company: company({ language: language === 'ar' ? 'arabic' : 'english' }),
    language,
    screen: 'ongoing',
    callType: 'video',
    callStartedAt: Date.now() - 5_000,
    remoteFeeds,
  });
  store.getState().setInCall({ status: { ...initialCallStatus(), ...status } });
  const engine = fakeEngine(store);
  render(
    <Wrapper store={store} callActions={{ ...demoCallActions(store), engine: () => engine }}>
      <OngoingScreen />
    </Wrapper>,
  );
  return store;
}

/** A person presses Escape where the focus is. */
function pressEscape() {
  fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
}

/** newest first, as the engine keeps them (docs/architecture.md: the guest app's state) */
function messages(count: number): ChatMessages {
  return Array.from({ length: count }, (_, i) => ({
    id: `m${count - i}`,
    body: `message ${count - i}`,
    at: Date.UTC(2026, 0, 1, 10, count - i),
    mine: (count - i) % 2 === 0,
    from: 'agent',
  })) as unknown as ChatMessages;
}

describe('the guest call panels and Escape', () => {
  it.each([
    ['chat', 'chat-toggle-button', 'chat-panel'],
    ['camera and sound', 'devices-button', 'device-panel'],
  ])('when the %s panel was opened by its button and the focus is still on that button, then Escape closes it and the focus stays on the button', async (_name, buttonId, panelId) => {
    await ensureLanguage('en');
    renderCall('en');
    const button = screen.getByTestId(buttonId);
    button.focus();
    fireEvent.click(button);
    expect(screen.getByTestId(panelId)).toBeTruthy();
    expect(document.activeElement).toBe(button);

    act(pressEscape);

    expect(screen.queryByTestId(panelId)).toBeNull();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
  });

  it.each([
    ['chat', 'chat-toggle-button', 'chat-panel', 'chat-input'],
    ['camera and sound', 'devices-button', 'device-panel', 'volume-slider'],
  ])('when the focus is inside the %s panel, then Escape closes it and gives the focus back to the button that opened it', async (_name, buttonId, panelId, insideId) => {
    await ensureLanguage('en');
    renderCall('en');
    const button = screen.getByTestId(buttonId);
    fireEvent.click(button);
    screen.getByTestId(insideId).focus();

    act(pressEscape);

    expect(screen.queryByTestId(panelId)).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('when the chat is closed with its close button, then the focus goes back to the chat button', async () => {
    await ensureLanguage('en');
    renderCall('en');
    const button = screen.getByTestId('chat-toggle-button');
    fireEvent.click(button);
    fireEvent.click(within(screen.getByTestId('chat-panel')).getByRole('button', { name: 'Close chat' }));
    expect(screen.queryByTestId('chat-panel')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('when no panel is open, then Escape changes nothing', async () => {
    await ensureLanguage('en');
    const store = renderCall('en');
    screen.getByTestId('chat-toggle-button').focus();
    act(pressEscape);
    expect(store.getState().inCall.status?.isChatOpen).toBe(false);
    expect(store.getState().inCall.status?.deviceConfigOpen).toBe(false);
  });
});

describe('the call volume', () => {
  it('when the guest lowers the volume in the camera and sound panel, then every other participant plays at that volume', async () => {
    await ensureLanguage('en');
    renderCall('en', {}, [fakeRemote('1', 'sarah@lobby.local'), fakeRemote('2', 'sup@lobby.local')]);
    const audios = () => [screen.getByTestId('remote-video'), screen.getByTestId('remote-video-other')].map((tile) => tile.querySelector('audio')!);
    expect(audios().map((a) => a.volume)).toEqual([1, 1]);
    fireEvent.click(screen.getByTestId('devices-button'));
    fireEvent.change(screen.getByTestId('volume-slider'), { target: { value: '0.3' } });
    await waitFor(() => expect(audios().map((a) => a.volume)).toEqual([0.3, 0.3]));
  });
});

describe('the noise-suppression switch', () => {
  it('when the guest turns it on in the camera and sound panel (off by default), then the engine is told and the choice is remembered', async () => {
    localStorage.removeItem('lobby.guest.noiseSuppression');
    noiseSuppression.length = 0;
    await ensureLanguage('en');
    renderCall('en');
    fireEvent.click(screen.getByTestId('devices-button'));
    const toggle = screen.getByRole<HTMLInputElement>('switch', { name: 'Noise suppression' });
    expect(toggle.checked).toBe(false);
    fireEvent.click(toggle);
    expect(toggle.checked).toBe(true);
    expect(noiseSuppression).toEqual([true]);
    expect(localStorage.getItem('lobby.guest.noiseSuppression')).toBe('on');
  });

  it('when the page is Arabic, then the switch is named in Arabic', async () => {
    await ensureLanguage('ar');
    renderCall('ar');
    fireEvent.click(screen.getByTestId('devices-button'));
    expect(await screen.findByRole('switch', { name: 'تقليل الضوضاء' })).toBeTruthy();
  });
});

describe('the guest chat button and list', () => {
  it('when two messages are unread, then the chat button is named with the count, in English and in Arabic', async () => {
    await ensureLanguage('en');
    renderCall('en', { unreadMessages: 2 });
    await waitFor(() => expect(screen.getByTestId('chat-toggle-button').getAttribute('aria-label')).toBe('Open chat, 2 unread messages'));
    cleanup();
    await ensureLanguage('ar');
    renderCall('ar', { unreadMessages: 2 });
    await waitFor(() => expect(screen.getByTestId('chat-toggle-button').getAttribute('aria-label')).toBe('فتح المحادثة، رسالتان غير مقروءتين'));
  });

  it('when the chat opens, then the messages read oldest to newest and the input comes after the newest', async () => {
    await ensureLanguage('en');
    renderCall('en', { isChatOpen: true, chatMessages: messages(3) });
    const bodies = screen.getAllByTestId('chat-message').map((m) => m.textContent);
    expect(bodies.map((b) => b?.slice(0, 'message 1'.length))).toEqual(['message 1', 'message 2', 'message 3']);
    const newest = screen.getAllByTestId('chat-message').at(-1);
    const input = screen.getByTestId('chat-input');
    expect(newest && newest.compareDocumentPosition(input) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('when a message arrives, then the list scrolls to it, unless the reader scrolled up to older ones; their own message brings them down', async () => {
    await ensureLanguage('en');
    const store = renderCall('en', { isChatOpen: true, chatMessages: messages(3) });
    const list = screen.getByTestId('chat-messages');
    // happy-dom lays nothing out: the list is 300 px tall and its content 1000 px
    Object.defineProperty(list, 'scrollHeight', { configurable: true, get: () => 1000 });
    Object.defineProperty(list, 'clientHeight', { configurable: true, get: () => 300 });
    const arrive = (body: string, mine: boolean) =>
      act(() => {
        const status = store.getState().inCall.status ?? initialCallStatus();
        const message = { id: body, body, at: Date.now(), mine, from: mine ? 'me' : 'agent' } as unknown as ChatMessages[number];
        store.getState().setInCall({ status: { ...status, chatMessages: [message, ...status.chatMessages] } });
      });

    arrive('from the agent', false);
    expect(list.scrollTop).toBe(1000);

    // the reader scrolls up to read older messages: the agent's next message leaves them there
    list.scrollTop = 100;
    fireEvent.scroll(list);
    arrive('another from the agent', false);
    expect(list.scrollTop).toBe(100);

    // their own message scrolls to the newest, as in every messenger
    arrive('mine', true);
    expect(list.scrollTop).toBe(1000);
  });
});
