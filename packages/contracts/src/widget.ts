// The messages between the widget (on the company's website, apps/widget) and the guest app (the Lobby
// origin, apps/guest/src/features/widget/bridge.ts), declared once for both (docs/widget.md).
// Imported as `@lobby/contracts/widget`: plain types and two strings, no schema library, so the widget's
// loader stays small.

/** `source` of every message the widget sends. */
export const FROM_WIDGET = 'lobby-widget';
/** `source` of every message the guest app sends. */
export const FROM_GUEST = 'lobby-guest';

/** widget → guest app. */
export type WidgetMessage =
  | { source: typeof FROM_WIDGET; type: 'init'; language: 'en' | 'ar' | null; assignment: number | null; guest: { name?: string; email?: string } }
  | { source: typeof FROM_WIDGET; type: 'setLanguage'; language: 'en' | 'ar' }
  | { source: typeof FROM_WIDGET; type: 'setAssignment'; assignment: number | null }
  | { source: typeof FROM_WIDGET; type: 'prefill'; guest: { name?: string; email?: string } }
  /** the website closes the panel: end the call now (the frame goes next) */
  | { source: typeof FROM_WIDGET; type: 'hangup' }
  /** the website's page is about to be replaced (its beforeunload): the call will be taken back by the next */
  | { source: typeof FROM_WIDGET; type: 'leaving' }
  /** ↗: hand the call over to the new window (answered by `moving`) */
  | { source: typeof FROM_WIDGET; type: 'move' };

/** guest app → widget. */
export interface GuestMessage {
  source: typeof FROM_GUEST;
  /** `alive`: the call page runs in the frame (so framing worked); it carries nothing else */
  type: 'alive' | 'ready' | 'callStarted' | 'callAnswered' | 'callEnded' | 'close' | 'moving';
  callType?: 'video' | 'voice' | null;
  reason?: string | null;
  answered?: boolean;
  /** `moving`: the call for the new window's address fragment, or null when there is none to move */
  carry?: string | null;
}

/** What `Lobby.on(event, handler)` handlers receive (also dispatched on window as `lobby:<event>`). */
export interface WidgetEvents {
  load: Record<string, never>;
  ready: Record<string, never>;
  open: { mode: 'frame' | 'window' };
  close: Record<string, never>;
  /** `resumed`: the call the website's previous page had, taken back by this page */
  callStarted: { callType: 'video' | 'voice' | null; resumed?: boolean };
  callAnswered: { resumed?: boolean };
  callEnded: { reason: string | null; answered: boolean };
  /** `message`: why, as the loader also writes it to the browser's console */
  error: { reason: 'notAllowed' | 'popupBlocked'; message?: string };
}
export type WidgetEventName = keyof WidgetEvents;
