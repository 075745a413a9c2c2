import { useEffect, useState } from 'react';

export interface InputDevices {
  cameras: MediaDeviceInfo[];
  microphones: MediaDeviceInfo[];
}

/** The cameras and microphones of this computer, refreshed when a device is plugged in or out. */
export function useInputDevices(): InputDevices {
  const [devices, setDevices] = useState<InputDevices>({ cameras: [], microphones: [] });
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
