// The devices fields of both in-call panels: the camera only in a video call, the app's control after it,
// and a device change that fails says so while the call keeps its devices.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { DeviceFields } from '../src/DeviceFields.tsx';

afterEach(cleanup);

const devices = [
  { deviceId: 'cam1', kind: 'videoinput', label: 'Front', groupId: '' },
  { deviceId: 'cam2', kind: 'videoinput', label: 'Back', groupId: '' },
  { deviceId: 'mic1', kind: 'audioinput', label: 'Mic', groupId: '' },
  { deviceId: 'mic2', kind: 'audioinput', label: 'Headset', groupId: '' },
];
beforeEach(() => {
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { enumerateDevices: () => Promise.resolve(devices), addEventListener: () => undefined, removeEventListener: () => undefined },
  });
});

async function renderFields(video: boolean, changeDevices: () => Promise<void>) {
  const engine = { changeDevices: vi.fn(changeDevices) };
  await act(async () => {
    await Promise.resolve();
    render(
      <DeviceFields
        engine={engine}
        localStream={null}
        video={video}
        idPrefix="agent-"
        speakerId=""
        onSpeaker={() => undefined}
        speakerLabel="Speaker"
        afterCamera={(_change, cameras) => <span data-testid="after-camera">{cameras}</span>}
      />,
    );
  });
  return engine;
}

describe('the devices fields', () => {
  it('when it is a voice call, then only the microphone is offered', async () => {
    await renderFields(false, () => Promise.resolve());
    expect(screen.queryByTestId('agent-camera-select')).toBeNull();
    expect(screen.queryByTestId('after-camera')).toBeNull();
    expect(screen.getByTestId('agent-microphone-select')).toBeTruthy();
  });

  it('when it is a video call, then the camera comes first with the app’s control after it, told how many cameras there are', async () => {
    await renderFields(true, () => Promise.resolve());
    expect(screen.getByTestId('agent-camera-select')).toBeTruthy();
    expect(screen.getByTestId('after-camera').textContent).toBe('2');
  });

  it('when another microphone is chosen and the change fails, then the engine was asked and the panel says it failed', async () => {
    const engine = await renderFields(true, () => Promise.reject(new Error('NotReadableError')));
    expect(screen.queryByRole('alert')).toBeNull();
    await act(async () => {
      fireEvent.change(screen.getByTestId('agent-microphone-select'), { target: { value: 'mic2' } });
      await Promise.resolve();
    });
    expect(engine.changeDevices).toHaveBeenCalledWith({ audioDeviceId: 'mic2' });
    expect(screen.getByRole('alert')).toBeTruthy();
  });
});
