// The app taking over a page whose first screen the server rendered (docs/architecture.md "The guest
// page"): only when this browser's app would show that very screen, so that its first render is the
// server's markup (hydration, no second layout); otherwise it renders as on a page without one.
import { pageFirstScreen } from '../api/company.ts';
import { ensureLanguage, applyLanguage } from '../i18n/index.ts';
import { resolveLanguage } from '../i18n/language.ts';
import { browserCheck, isAutomated } from '../journey/checks.ts';
import { ScreenRegistry } from '../features/screens/registry.ts';
import type { GuestData } from '../state/store.ts';
import { firstScreenOf, firstScreenState, pageMayCarryFirstScreen } from './firstScreen.ts';

export interface TakeOver {
  /** the store's starting data: the screen the server rendered */
  state: Partial<GuestData>;
  /** resolves once the screen's chunk and the page's language are loaded: then hydrate */
  ready: Promise<void>;
  /**
   * Call just before the hydration: stops keeping the presses on a call button of the server's screen and
   * answers what to run once the app holds the page (the last press, pressed again: none is lost).
   */
  stopRecording: () => () => void;
}

/**
 * The take-over of this page's first screen, or null: no screen in the page, or the app would show
 * another one (another language saved by the guest, an unsupported or automated browser, closed since).
 */
export function takeOverFirstScreen(doc: Document = document, url: string = window.location.pathname + window.location.search): TakeOver | null {
  const data = pageFirstScreen(doc);
  const root = doc.getElementById('root');
  if (!data || !root?.firstElementChild || !pageMayCarryFirstScreen(url)) return null;
  const { company, language } = data;
  if (resolveLanguage(company) !== language) return null;
  const screen = firstScreenOf(company, { browser: browserCheck(), automated: isAutomated(), now: new Date() });
  // the screen the server rendered (the block does not say which: the markup does)
  if (!screen || !root.querySelector(`[data-screen="${screen}"]`)) return null;

  // a guest may press a call button of the server's screen before React listens: keep the press
  let clicked: HTMLElement | null = null;
  const record = (event: Event) => {
    const target = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-testid="call-button"]') : null;
    if (target) clicked = target;
  };
  root.addEventListener('click', record, true);
  const ready = Promise.all([
    ScreenRegistry.load(screen),
    ensureLanguage(language).catch(() => undefined),
  ]).then(
    () => applyLanguage(language),
    () => applyLanguage(language),
  );
  return {
    state: firstScreenState(company, language, screen, url),
    ready,
    stopRecording() {
      // from the hydration on, React hears the presses itself
      root.removeEventListener('click', record, true);
      const button = clicked;
      clicked = null;
      // The same element (the hydration keeps the server's). Out of React's commit: a click on a part not
      // hydrated yet (the screen's Suspense boundary) makes React hydrate it at once, then run its handler.
      return () => {
        if (button) setTimeout(() => button.isConnected && button.click(), 0);
      };
    },
  };
}
