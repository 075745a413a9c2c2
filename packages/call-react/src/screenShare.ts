import { useState } from 'react';
import type { GuestCall } from '@lobby/call';

/** The engine's screen-share methods (the guest's and the agent's engine share them). */
export type ScreenShareEngine = Pick<GuestCall, 'startScreenShare' | 'stopScreenShare'>;

export interface ScreenShare {
  /** whether this browser can share a screen at all (getDisplayMedia) */
  supported: boolean;
  /** true while a start or stop is under way (the button waits) */
  busy: boolean;
  /** starts sharing, or stops it when `sharing` */
  toggle: (sharing: boolean) => Promise<void>;
}

const canShare = () => typeof navigator !== 'undefined' && !!navigator.mediaDevices?.getDisplayMedia;

/** Shares the screen as a second publisher, or stops it (docs/protocol.md "Screen share"). */
export function useScreenShare(engine: ScreenShareEngine | null): ScreenShare {
  const [busy, setBusy] = useState(false);
  return {
    supported: !!engine && canShare(),
    busy,
    toggle: async (sharing) => {
      if (!engine) return;
      setBusy(true);
      try {
        if (sharing) await engine.stopScreenShare();
        else await engine.startScreenShare();
      } catch {
        // refused or cancelled: nothing is shared, the button says so
      } finally {
        setBusy(false);
      }
    },
  };
}
