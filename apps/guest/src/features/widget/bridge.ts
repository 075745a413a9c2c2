// The guest side of the widget's postMessage bridge (docs/widget.md; the other side is apps/widget).
// It talks to exactly one origin, the website's, and only once the company lists it in widgetOrigins;
// it reads only messages from that origin and from the window that embeds or opened this page.
import type { GuestState, GuestStore } from '../../state/store.ts';
import type { CallActions } from '../../state/callActions.ts';
import { resumeCarriedCall } from './resumeCall.ts';
import { movedCallFragment } from './movedCall.ts';
import { FROM_GUEST, FROM_WIDGET, type GuestMessage } from '@lobby/contracts/widget';
import { originAllowed, type WidgetContext } from './context.ts';

export interface GuestPrefill {
  name?: string;
  email?: string;
}

let prefill: GuestPrefill = {};
let siteLanguage = false;

/**
 * The website chose the language (`data-language`, `Lobby.setLanguage`): the call page offers no switch
 * of its own then (docs/widget.md). Read while rendering: it changes with the store's language.
 */
export function languageFixedBySite(): boolean {
  return siteLanguage;
}
const prefillListeners = new Set<() => void>();

/** Name and email the website pre-filled (Lobby.prefill); empty when none. */
export function widgetPrefill(): GuestPrefill {
  return prefill;
}

/**
 * Calls `listener` whenever the website pre-fills (again): the pre-fill arrives by message after the call
 * page said ready, which may be after the welcome form is on screen. Answers the unsubscribe function.
 */
export function onWidgetPrefill(listener: () => void): () => void {
  prefillListeners.add(listener);
  return () => prefillListeners.delete(listener);
}

/** Welcome-form answers pre-filled from the website: a field keyed or typed `email`, a field keyed `name`. */
export function prefilledAnswers(fields: Array<{ key: string; type: string }>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of fields) {
    if (prefill.email && (field.type === 'email' || field.key === 'email')) out[field.key] = prefill.email;
    else if (prefill.name && /^(full_?)?name$/i.test(field.key)) out[field.key] = prefill.name;
  }
  return out;
}

const inCallScreens = new Set<GuestState['screen']>(['waiting', 'ongoing']);

export interface WidgetBridge {
  dispose(): void;
}

/**
 * Binds the store to the website's widget; `peer` is the embedding (or opening) window; `actions` end a
 * call when the website closes the panel, and take back the call its previous page carried.
 */
export function bindWidgetBridge(
  store: GuestStore,
  context: WidgetContext,
  peer: Window | null = embedder(),
  actions?: CallActions,
): WidgetBridge {
  const s = () => store.getState();
  let enabled = false;
  let answered = false;

  const post = (message: Omit<GuestMessage, 'source'>) => {
    const full: GuestMessage = { source: FROM_GUEST, ...message };
    if (enabled && peer) peer.postMessage(full, context.origin);
  };

  const canChooseAssignment = () => !inCallScreens.has(s().screen);
  const chooseAssignment = (id: number | null) => {
    if (!canChooseAssignment()) return;
    if (id === null) return s().setAssignment(null);
    const known = s().company?.assignments?.some((a) => String(a.id) === String(id));
    if (known) s().setAssignment(id);
  };
  const chooseLanguage = (language: unknown) => {
    if (language !== 'en' && language !== 'ar') return;
    siteLanguage = true;
    s().setLanguage(language);
  };
  const applyPrefill = (guest: unknown) => {
    if (!guest || typeof guest !== 'object') return;
    const g = guest as Record<string, unknown>;
    prefill = {
      ...(typeof g.name === 'string' && g.name ? { name: g.name.slice(0, 200) } : {}),
      ...(typeof g.email === 'string' && g.email ? { email: g.email.slice(0, 320) } : {}),
    };
    for (const listener of prefillListeners) listener();
  };

  const onMessage = (event: MessageEvent<unknown>) => {
    if (!enabled || event.origin !== context.origin || !peer || event.source !== peer) return;
    const message = event.data as Record<string, unknown> | null;
    if (!message || typeof message !== 'object' || message.source !== FROM_WIDGET) return;
    switch (message.type) {
      case 'init':
        if (message.language) chooseLanguage(message.language);
        if (typeof message.assignment === 'number') chooseAssignment(message.assignment);
        applyPrefill(message.guest);
        break;
      case 'setLanguage':
        chooseLanguage(message.language);
        break;
      case 'setAssignment':
        if (message.assignment === null || typeof message.assignment === 'number') chooseAssignment(message.assignment);
        break;
      case 'prefill':
        applyPrefill(message.guest);
        break;
      case 'leaving':
        actions?.pageLeaving?.();
        break;
      case 'move':
        // ↗: the call goes into the new window the loader opened (docs/widget.md "Into a new window")
        void actions
          ?.moveOut?.()
          .catch(() => null)
          .then((call) => post({ type: 'moving', carry: call ? movedCallFragment(call) : null }));
        break;
      case 'hangup':
        // the website closes the panel: the call ends now, not when the agent stops waiting for the guest
        if (s().screen === 'waiting') void actions?.cancel();
        else if (s().screen === 'ongoing') void actions?.hangup();
        break;
      default:
        break;
    }
  };
  window.addEventListener('message', onMessage);
  // Before the company is known: tell the embedder only that this page runs (so it was framed and is
  // merely slow), nothing else, and only to the origin it claims; everything else waits for `ready`.
  if (peer) peer.postMessage({ source: FROM_GUEST, type: 'alive' } satisfies GuestMessage, context.origin);

  // once the company is known: is this website allowed? then apply the URL's choices and say ready
  const start = (state: GuestState) => {
    if (enabled || state.phase !== 'ready' || !state.company) return;
    if (!originAllowed(state.company, context.origin)) {
      console.warn(`Lobby: ${context.origin} is not in this company's widget origins; the widget bridge stays off`);
      unsubscribeStart();
      return;
    }
    enabled = true;
    unsubscribeStart();
    if (context.language) chooseLanguage(context.language);
    if (context.assignment !== null) chooseAssignment(context.assignment);
    post({ type: 'ready' });
    if (actions) resumeCarriedCall(store, actions);
  };
  const unsubscribeStart = store.subscribe(start);
  start(s());

  // call started / answered / ended, from the journey's screens
  const unsubscribeCalls = store.subscribe((state, previous) => {
    if (state.screen === previous.screen) return;
    const was = inCallScreens.has(previous.screen);
    if (state.screen === 'waiting' && previous.screen !== 'waiting') {
      answered = false;
      post({ type: 'callStarted', callType: state.callType });
    }
    if (state.screen === 'ongoing' && previous.screen !== 'ongoing') {
      answered = true;
      post({ type: 'callAnswered' });
    }
    if (was && !inCallScreens.has(state.screen)) {
      post({ type: 'callEnded', reason: state.endReason ?? state.screen, answered });
    }
  });

  return {
    dispose() {
      window.removeEventListener('message', onMessage);
      unsubscribeStart();
      unsubscribeCalls();
    },
  };
}

/** The window that framed this page, else the one that opened it; null for a page of its own. */
function embedder(): Window | null {
  if (window.parent !== window) return window.parent;
  return (window.opener as Window | null) ?? null;
}
