// The shared call bar: its buttons carry the app's test-id prefix, the screen is offered only where the
// browser can share and the app allows it now, and a refused share leaves the button ready and unshared.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { CallBar, type CallBarProps } from '../src/CallBar.tsx';

afterEach(cleanup);

let displayMedia = true;
beforeEach(() => {
  displayMedia = true;
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    get: () => (displayMedia ? { getDisplayMedia: () => Promise.resolve() } : {}),
  });
});

function renderBar(props: Partial<CallBarProps> = {}) {
  const engine = { startScreenShare: vi.fn(() => Promise.reject(new Error('NotAllowedError'))), stopScreenShare: vi.fn(() => Promise.resolve()) };
  const actions = { toggleAudio: vi.fn(), toggleVideo: vi.fn(), hangup: vi.fn() };
  const panels = { chatOpen: false, unread: 0, devicesOpen: false, sharing: false };
  render(<CallBar iconSize={22} video muted={{ audio: false, video: false }} engine={engine} actions={actions} panels={panels} {...props} />);
  return { engine, ...actions };
}

describe('the call bar', () => {
  it('when the console renders it, then every button carries the agent- prefix and presses reach the app', () => {
    const { toggleAudio, toggleVideo, hangup } = renderBar({ idPrefix: 'agent-', muted: { audio: true, video: false } });
    fireEvent.click(screen.getByTestId('agent-mute-audio-button'));
    fireEvent.click(screen.getByTestId('agent-mute-video-button'));
    fireEvent.click(screen.getByTestId('agent-hangup-button'));
    expect(toggleAudio).toHaveBeenCalledOnce();
    expect(toggleVideo).toHaveBeenCalledOnce();
    expect(hangup).toHaveBeenCalledOnce();
    expect(screen.getByTestId('agent-mute-audio-button').getAttribute('data-muted')).toBe('true');
    expect(screen.getByTestId('agent-screen-share-button')).toBeTruthy();
  });

  it('when it is a voice call, then there is no camera button', () => {
    renderBar({ video: false });
    expect(screen.queryByTestId('mute-video-button')).toBeNull();
    expect(screen.getByTestId('mute-audio-button')).toBeTruthy();
  });

  it('when the browser cannot share a screen, or the app does not allow it now (held), or there is no engine yet, then no share button shows', () => {
    displayMedia = false;
    renderBar();
    expect(screen.queryByTestId('screen-share-button')).toBeNull();
    cleanup();
    displayMedia = true;
    renderBar({ canShareNow: false });
    expect(screen.queryByTestId('screen-share-button')).toBeNull();
    cleanup();
    renderBar({ engine: null });
    expect(screen.queryByTestId('screen-share-button')).toBeNull();
  });

  it('when the person refuses the share, then nothing is shared and the button is ready again', async () => {
    const { engine } = renderBar();
    const button = screen.getByTestId<HTMLButtonElement>('screen-share-button');
    await act(async () => {
      fireEvent.click(button);
      await Promise.resolve();
    });
    expect(engine.startScreenShare).toHaveBeenCalledOnce();
    expect(engine.stopScreenShare).not.toHaveBeenCalled();
    expect(button.disabled).toBe(false);
    expect(button.getAttribute('data-sharing')).toBe('false');
  });

  it('when a screen is shared, then a press stops it', async () => {
    const { engine } = renderBar({ panels: { chatOpen: false, unread: 0, devicesOpen: false, sharing: true } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('screen-share-button'));
      await Promise.resolve();
    });
    expect(engine.stopScreenShare).toHaveBeenCalledOnce();
    expect(engine.startScreenShare).not.toHaveBeenCalled();
  });
});
