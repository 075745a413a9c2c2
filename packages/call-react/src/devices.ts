import { useEffect, useState } from 'react';
import type { DeviceChoice } from '@lobby/call';

export interface DeviceList {
  cameras: MediaDeviceInfo[];
  microphones: MediaDeviceInfo[];
  /** audio outputs; empty where the browser cannot choose one (no HTMLMediaElement.setSinkId) */
  speakers: MediaDeviceInfo[];
}

const canChooseSpeaker = () => typeof HTMLMediaElement !== 'undefined' && 'setSinkId' in HTMLMediaElement.prototype;

/** The cameras, microphones and speakers of this device, refreshed when one is plugged in or out. */
export function useDeviceList(): DeviceList {
  const [devices, setDevices] = useState<DeviceList>({ cameras: [], microphones: [], speakers: [] });
  useEffect(() => {
    const md = navigator.mediaDevices;
    if (!md?.enumerateDevices) return;
    let gone = false;
    const load = () =>
      void md.enumerateDevices().then((all) => {
        if (gone) return;
        setDevices({
          cameras: all.filter((d) => d.kind === 'videoinput'),
          microphones: all.filter((d) => d.kind === 'audioinput'),
          speakers: canChooseSpeaker() ? all.filter((d) => d.kind === 'audiooutput') : [],
        });
      });
    load();
    md.addEventListener('devicechange', load);
    return () => {
      gone = true;
      md.removeEventListener('devicechange', load);
    };
  }, []);
  return devices;
}

/** The engine's device change (docs/protocol.md "Devices during the call"). */
export interface DeviceChangeEngine {
  changeDevices(choice: DeviceChoice): Promise<void>;
}

export interface DeviceChange {
  change: (choice: DeviceChoice) => Promise<void>;
  /** true while a change is under way (the selects wait) */
  busy: boolean;
  /** the last change failed: the old device stays, the panel says so */
  failed: boolean;
}

/** Changes camera or microphone during the call, with its busy and failed states. */
export function useDeviceChange(engine: DeviceChangeEngine | null): DeviceChange {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  return {
    busy,
    failed,
    change: async (choice) => {
      if (!engine) return;
      setFailed(false);
      setBusy(true);
      try {
        await engine.changeDevices(choice);
      } catch {
        setFailed(true);
      } finally {
        setBusy(false);
      }
    },
  };
}

/** The device id of the local stream's track of a kind ('' when there is none). */
export function currentDeviceId(stream: MediaStream | null, kind: 'audio' | 'video'): string {
  const track = kind === 'audio' ? stream?.getAudioTracks()[0] : stream?.getVideoTracks()[0];
  return track?.getSettings().deviceId ?? '';
}
