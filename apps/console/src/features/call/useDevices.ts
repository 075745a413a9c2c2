import { useEffect, useState } from 'react';

export interface InputDevices {
  cameras: MediaDeviceInfo[];
  microphones: MediaDeviceInfo[];
  /** audio outputs; empty where the browser cannot choose one (no HTMLMediaElement.setSinkId) */
  speakers: MediaDeviceInfo[];
}

const canChooseSpeaker = () => typeof HTMLMediaElement !== 'undefined' && 'setSinkId' in HTMLMediaElement.prototype;

/** The cameras, microphones and speakers of this computer, refreshed when a device is plugged in or out. */
export function useInputDevices(): InputDevices {
  const [devices, setDevices] = useState<InputDevices>({ cameras: [], microphones: [], speakers: [] });
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
