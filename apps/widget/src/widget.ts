// The Lobby website widget (docs/widget.md). A company pastes one line into its website:
//   <script src="https://lobby.example.com/widget.js" async></script>
// and gets a call button in its colours and language. The button opens the Lobby guest app in an iframe
// (or in a new window on small screens, or when the website may not frame it). The host page drives it
// through `window.Lobby` and hears about calls through `Lobby.on(…)` and `lobby:*` DOM events.
// Every message is checked both ways: the loader talks only to the Lobby origin and the guest app's own
// window; the guest app talks only to the origin that the company listed (widgetOrigins).
import { labels, type WidgetLanguage } from './labels.ts';
import { FROM_GUEST, FROM_WIDGET, type GuestMessage, type WidgetEventName, type WidgetEvents } from '@lobby/contracts/widget';
import { adoptStyles, panelCss } from './styles.ts';
import { watchPolicyRefusals } from './policy.ts';

interface WidgetConfig {
  allowed: boolean;
  companyId: number;
  name: string;
  language: string;
  backgroundColor: string;
  textColor: string;
}

type Handler<K extends WidgetEventName> = (detail: WidgetEvents[K]) => void;

export interface LobbyApi {
  open(): void;
  close(): void;
  setLanguage(language: WidgetLanguage): void;
  setAssignment(assignmentId: number | null): void;
  prefill(guest: { name?: string; email?: string }): void;
  on<K extends WidgetEventName>(event: K, handler: Handler<K>): () => void;
  off<K extends WidgetEventName>(event: K, handler: Handler<K>): void;
  readonly isOpen: boolean;
  /**
   * The website is about to leave the pages that have the snippet: a call in the panel moves into its own
   * window. Call it within the visitor's click; navigate once it resolves (the panel's call page hands the
   * call over first).
   */
  keepCallOpen(): Promise<void>;
}

declare global {
  interface Window {
    Lobby?: LobbyApi;
  }
}

/**
 * Set by the first copy of the loader on a page: a website that includes the snippet twice (its template
 * and a tag manager) gets one launcher and one `lobby:load`.
 */
const LOADED = Symbol.for('lobby.widget.loaded');
type Marked = Window & { [LOADED]?: true };

const SMALL_SCREEN = '(max-width: 600px), (max-height: 560px)';
/**
 * The call page says `alive` (its script runs, so the browser framed it) within this long after the
 * iframe loads, or framing was refused. Not `ready`: that waits for the company's details, which a slow
 * device or network may take longer to get, and a slow page is not a refused one.
 */
const READY_TIMEOUT_MS = 8000;
const ALLOW = 'camera; microphone; display-capture; geolocation; autoplay; fullscreen; clipboard-write';
/** How often the loader looks whether its new window was closed (browsers give the opener no event). */
const WINDOW_WATCH_MS = 500;
/**
 * The website's next page takes back a call in the panel (docs/widget.md "Moving between pages") when it
 * loads within this long of the last one going: the agent waits 45 s for a navigating guest (apps/guest's
 * carriedCall.ts keeps the same limit on its side).
 */
const CARRY_MS = 35_000;
const CARRY_KEY = 'lobby.widget.carry';
/** ↗ with a call on: how long the panel's call page gets to hand its call over to the new window. */
const MOVE_WAIT_MS = 3000;
const WINDOW_FEATURES = 'popup,width=420,height=720';
/** Closing the panel with a call on: how long the call page gets to hang up before it is removed. */
const HANGUP_WAIT_MS = 2000;

function start(script: HTMLScriptElement): void {
  const lobbyOrigin = new URL(script.src, document.baseURI).origin;
  const data = script.dataset;
  let language: WidgetLanguage | null = data.language === 'ar' || data.language === 'en' ? data.language : null;
  let assignment: number | null = data.assignment && /^\d+$/.test(data.assignment) ? Number(data.assignment) : null;
  let guest: { name?: string; email?: string } = {};
  if (data.name) guest.name = data.name;
  if (data.email) guest.email = data.email;

  const handlers = new Map<WidgetEventName, Set<(detail: unknown) => void>>();
  const emit = <K extends WidgetEventName>(event: K, detail: WidgetEvents[K]) => {
    handlers.get(event)?.forEach((h) => {
      try {
        h(detail);
      } catch (error) {
        console.error('Lobby widget: an event handler failed', error);
      }
    });
    window.dispatchEvent(new CustomEvent(`lobby:${event}`, { detail }));
  };

  // the website's own Content-Security-Policy refusing the Lobby origin: named at once (docs/widget.md "CSP")
  const policy = watchPolicyRefusals(lobbyOrigin);

  void fetch(`${lobbyOrigin}/api/widget/config`, { mode: 'cors', credentials: 'omit' })
    .then(async (response) => {
      // the server lets the website read its refusal (a 403 naming the origin), so the cause is ours to say
      const body = (await response.json().catch(() => null)) as { data?: WidgetConfig; message?: string } | null;
      if (!response.ok || !body?.data?.allowed) throw new Error(body?.message ?? `HTTP ${response.status}`);
      mount(body.data);
    })
    .catch(async (error: unknown) => {
      // A website that the company did not list gets no widget (the call page refuses to be framed too).
      // A failed fetch may be the website's own CSP: the browser's report of it comes just after.
      const refusal = error instanceof TypeError ? await policy.refusedSoon('connect-src', 500) : null;
      const why = refusal ?? (error instanceof Error ? error.message : String(error));
      console.error(`Lobby widget: no call button on ${location.origin}: ${why}`);
      emit('error', { reason: 'notAllowed', message: why });
    });

  function mount(config: WidgetConfig): void {
    const companyLanguage: WidgetLanguage = config.language === 'arabic' ? 'ar' : 'en';
    const lang = () => language ?? companyLanguage;

    const host = document.createElement('div');
    host.setAttribute('data-lobby-widget', '');
    const root = host.attachShadow({ mode: 'open' });
    const launcher = document.createElement('button');
    launcher.type = 'button';
    launcher.className = 'launcher';
    launcher.setAttribute('part', 'launcher');
    launcher.setAttribute('data-testid', 'lobby-launcher');
    launcher.innerHTML =
      '<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="m16 13 5.2 3.5a.5.5 0 0 0 .8-.4V7.9a.5.5 0 0 0-.8-.4L16 11"/><rect x="2" y="6" width="14" height="12" rx="2"/></svg><span></span>';
    const panel = document.createElement('div');
    panel.className = 'panel';
    panel.hidden = true;
    panel.setAttribute('role', 'dialog');
    panel.setAttribute('data-testid', 'lobby-panel');
    const bar = document.createElement('div');
    bar.className = 'bar';
    const title = document.createElement('span');
    title.className = 'title';
    const popOut = document.createElement('button');
    popOut.type = 'button';
    popOut.className = 'icon';
    popOut.textContent = '↗';
    const closeButton = document.createElement('button');
    closeButton.type = 'button';
    closeButton.className = 'icon';
    closeButton.textContent = '✕';
    closeButton.setAttribute('data-testid', 'lobby-close');
    bar.append(title, popOut, closeButton);
    const body = document.createElement('div');
    body.className = 'body';
    panel.append(bar, body);
    // a constructed stylesheet: a website whose CSP refuses inline styles (style-src 'self') keeps ours
    adoptStyles(root, panelCss(config.backgroundColor, config.textColor));
    root.append(panel, launcher);
    if (data.position === 'left') host.classList.add('left');
    document.body.append(host);

    let frame: HTMLIFrameElement | null = null;
    let popup: Window | null = null;
    let ready = false;
    let alive = false;
    let readyTimer: ReturnType<typeof setTimeout> | undefined;
    let inCall = false;
    let savedTitle: string | null = null;
    const windowName = `lobby-${config.companyId}`;

    const texts = () => labels[lang()];
    const render = () => {
      const t = texts();
      const label = launcher.querySelector('span');
      // the launcher under the open panel closes it; with the call in a window it brings the window back
      const says = !panel.hidden ? t.close : inCall ? t.inCall : t.call;
      if (label) label.textContent = says;
      launcher.setAttribute('aria-label', `${says} — ${config.name}`);
      launcher.setAttribute('aria-expanded', String(!panel.hidden));
      // the call page shows the company's brand on every screen: the bar does not say it a second time
      title.textContent = '';
      panel.setAttribute('aria-label', `${t.call} — ${config.name}`);
      popOut.setAttribute('aria-label', t.newWindow);
      popOut.title = t.newWindow;
      closeButton.setAttribute('aria-label', t.close);
      closeButton.title = t.close;
      host.dir = lang() === 'ar' ? 'rtl' : 'ltr';
      host.lang = lang();
    };

    const guestUrl = (resume = false) => {
      const url = new URL('/', lobbyOrigin);
      url.searchParams.set('service', 'widget');
      url.searchParams.set('origin', location.origin);
      if (resume) url.searchParams.set('resume', '1');
      if (language) url.searchParams.set('lang', language);
      if (assignment !== null) url.searchParams.set('assignment', String(assignment));
      return url.toString();
    };
    const target = (): Window | null => (frame?.contentWindow ?? null) || (popup && !popup.closed ? popup : null);
    const send = (message: Record<string, unknown>) => {
      // only the Lobby origin can read it, whatever the frame navigated to
      target()?.postMessage({ source: FROM_WIDGET, ...message }, lobbyOrigin);
    };
    const sendState = () => {
      send({ type: 'init', language, assignment, guest });
    };

    const refused = () => {
      // framing refused (or the page never answered): offer a new window, which needs a click of its own
      body.replaceChildren();
      frame = null;
      const note = document.createElement('p');
      note.className = 'note';
      note.textContent = texts().refused;
      const openButton = document.createElement('button');
      openButton.type = 'button';
      openButton.className = 'launcher inline';
      openButton.textContent = texts().newWindow;
      openButton.setAttribute('data-testid', 'lobby-open-window');
      openButton.addEventListener('click', () => openWindow());
      body.append(note, openButton);
    };

    const openWindow = (): void => {
      if (frame && inCall && !popup) {
        void moveIntoWindow();
        return;
      }
      closePanel(false);
      if (popup && !popup.closed) {
        popup.focus();
        return;
      }
      ready = false;
      popup = window.open(guestUrl(), windowName, WINDOW_FEATURES);
      if (!popup) emit('error', { reason: 'popupBlocked' });
      else {
        emit('open', { mode: 'window' });
        watchWindow(popup);
      }
    };

    /**
     * ↗ with a call in the panel (docs/widget.md "Into a new window"): the window opens now (within the
     * click, or the pop-up blocker stops it), the call page hands its call over as to the website's next
     * page, and the window's call page takes it back; the call is not ended and the website hears no
     * callEnded. A call page that has nothing to hand over in time is closed as the panel is.
     */
    const moveIntoWindow = (): Promise<void> => {
      const opened = window.open('about:blank', windowName, WINDOW_FEATURES);
      if (!opened) {
        emit('error', { reason: 'popupBlocked' });
        return Promise.resolve();
      }
      let moved = () => {};
      const done = new Promise<void>((resolve) => (moved = resolve));
      const finishMove = (carry: string | null) => {
        moving = null;
        moved();
        if (!carry) closePanel(false); // nothing to move: the call in the panel ends, the window starts afresh
        else {
          // the panel's call page goes without hanging up: its call lives on in the window
          resumed = true;
          clearTimeout(readyTimer);
          panel.hidden = true;
          frame?.remove();
          frame = null;
          body.replaceChildren();
        }
        ready = false;
        popup = opened;
        opened.location.href = `${guestUrl()}${carry ? `#${carry}` : ''}`;
        render();
        emit('open', { mode: 'window' });
        watchWindow(opened);
      };
      const fallBack = setTimeout(() => finishMove(null), MOVE_WAIT_MS);
      moving = (carry) => {
        clearTimeout(fallBack);
        finishMove(carry);
      };
      send({ type: 'move' });
      return done;
    };
    /** the panel's call page answered `move` (the call for the window's address, or null) */
    let moving: ((carry: string | null) => void) | null = null;

    /** The new window closed (by the visitor, or by the phone's browser): the website hears it. */
    const watchWindow = (opened: Window) => {
      const timer = setInterval(() => {
        if (!opened.closed) return;
        clearInterval(timer);
        if (popup === opened) popup = null;
        endCall('windowClosed');
        render();
        emit('close', {});
      }, WINDOW_WATCH_MS);
    };

    let answered = false;
    /** the panel waits for the call page to hang up before it closes */
    let hangingUp: ReturnType<typeof setTimeout> | undefined;
    /** this page's panel took back the previous page's call: its callStarted/callAnswered say so */
    let resumed = false;
    /** The call page went away with a call on (its window closed, the panel closed, the page left). */
    const endCall = (reason: string) => {
      if (!inCall) return;
      inCall = false;
      emit('callEnded', { reason, answered });
    };

    const openFrame = (resume = false) => {
      panel.hidden = false;
      render();
      if (frame) return;
      resumed = resume;
      ready = false;
      alive = false;
      body.replaceChildren();
      frame = document.createElement('iframe');
      frame.title = `${config.name}`;
      frame.allow = ALLOW;
      frame.setAttribute('data-testid', 'lobby-frame');
      frame.src = guestUrl(resume);
      // the website's CSP refusing the frame (frame-src) is known at once; no need to wait for the page
      policy.onRefused('frame-src', () => {
        if (frame && !alive) refused();
      });
      frame.addEventListener('load', () => {
        clearTimeout(readyTimer);
        readyTimer = setTimeout(() => {
          if (!ready && !alive) refused();
        }, READY_TIMEOUT_MS);
      });
      body.append(frame);
      emit('open', { mode: 'frame' });
    };

    const closePanel = (notify = true) => {
      if (frame && inCall && !hangingUp) {
        // the call page hangs up first (the agent hears it at once), then goes; its callEnded closes it
        hangingUp = setTimeout(() => closePanel(notify), HANGUP_WAIT_MS);
        send({ type: 'hangup' });
        return;
      }
      clearTimeout(hangingUp);
      hangingUp = undefined;
      clearTimeout(readyTimer);
      panel.hidden = true;
      // closing removes the call page: a call in it ends (the page's pagehide hangs up)
      if (frame) endCall('closed');
      frame?.remove();
      frame = null;
      body.replaceChildren();
      render();
      if (notify) emit('close', {});
    };

    const api: LobbyApi = {
      open() {
        if (popup && !popup.closed) popup.focus();
        else if (window.matchMedia(SMALL_SCREEN).matches) openWindow();
        else openFrame();
      },
      close() {
        if (popup && !popup.closed) popup.close();
        popup = null;
        if (!panel.hidden) closePanel();
      },
      setLanguage(next) {
        if (next !== 'en' && next !== 'ar') throw new TypeError('Lobby.setLanguage: "en" or "ar"');
        language = next;
        render();
        send({ type: 'setLanguage', language: next });
      },
      setAssignment(id) {
        if (id !== null && !Number.isInteger(id)) throw new TypeError('Lobby.setAssignment: an assignment id (integer) or null');
        assignment = id;
        send({ type: 'setAssignment', assignment: id });
      },
      prefill(next) {
        guest = {
          ...(typeof next.name === 'string' ? { name: next.name.slice(0, 200) } : {}),
          ...(typeof next.email === 'string' ? { email: next.email.slice(0, 320) } : {}),
        };
        send({ type: 'prefill', guest });
      },
      on(event, handler) {
        const set = handlers.get(event) ?? new Set();
        set.add(handler as (detail: unknown) => void);
        handlers.set(event, set);
        return () => api.off(event, handler);
      },
      off(event, handler) {
        handlers.get(event)?.delete(handler as (detail: unknown) => void);
      },
      // in the click that leaves the website (a window opens only within one), as ↗ does
      keepCallOpen() {
        return frame && inCall && !popup ? moveIntoWindow() : Promise.resolve();
      },
      get isOpen() {
        return !panel.hidden || (!!popup && !popup.closed);
      },
    };

    window.addEventListener('message', (event: MessageEvent<unknown>) => {
      // strict: the Lobby origin, from the window this widget opened, in our shape
      if (event.origin !== lobbyOrigin) return;
      if (!event.source || event.source !== target()) return;
      const message = event.data as Partial<GuestMessage> | null;
      if (!message || typeof message !== 'object' || message.source !== FROM_GUEST || typeof message.type !== 'string') return;
      switch (message.type) {
        case 'alive':
          alive = true;
          clearTimeout(readyTimer);
          break;
        case 'ready':
          ready = true;
          clearTimeout(readyTimer);
          sendState();
          emit('ready', {});
          break;
        case 'callStarted':
          inCall = true;
          answered = false;
          render();
          emit('callStarted', { callType: message.callType ?? null, ...(resumed ? { resumed } : {}) });
          break;
        case 'callAnswered':
          answered = true;
          emit('callAnswered', resumed ? { resumed } : {});
          if (document.visibilityState === 'hidden') flagTitle();
          break;
        case 'callEnded':
          inCall = false;
          render();
          emit('callEnded', { reason: message.reason ?? null, answered: !!message.answered });
          resumed = false;
          if (hangingUp) closePanel();
          break;
        case 'close':
          api.close();
          break;
        case 'moving':
          moving?.(typeof message.carry === 'string' && message.carry ? message.carry : null);
          break;
        default:
          break;
      }
    });

    // the host page's title says the call was answered while the website's tab was in the background
    const flagTitle = () => {
      savedTitle ??= document.title;
      document.title = `${texts().answered} — ${savedTitle}`;
    };
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible' && savedTitle !== null) {
        document.title = savedTitle;
        savedTitle = null;
      }
    });
    // the visitor follows a link of the website: the framed call page goes with this page and leaves its
    // call to the next page's widget, which opens its panel and takes it back (a new window's call goes on)
    // said before the page goes (beforeunload), while the call page can still tell the agent for sure
    window.addEventListener('beforeunload', () => {
      if (frame && inCall) send({ type: 'leaving' });
    });
    window.addEventListener('pagehide', () => {
      if (!frame || !inCall) return;
      try {
        sessionStorage.setItem(CARRY_KEY, JSON.stringify({ at: Date.now(), companyId: config.companyId }));
      } catch {
        endCall('pageLeft'); // no storage: the next page cannot know, the call ends with this one
      }
    });

    launcher.addEventListener('click', () => (api.isOpen && !panel.hidden ? api.close() : api.open()));
    closeButton.addEventListener('click', () => api.close());
    popOut.addEventListener('click', () => openWindow());
    window.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && !panel.hidden && !inCall) api.close();
    });
    render();
    window.Lobby = api;
    emit('load', {});
    if (carriedHere(config.companyId)) openFrame(true);
  }
}

/** The previous page of this website left a call in its panel, a moment ago, for this page to take back. */
function carriedHere(companyId: number): boolean {
  try {
    const raw = sessionStorage.getItem(CARRY_KEY);
    sessionStorage.removeItem(CARRY_KEY);
    const carried = raw ? (JSON.parse(raw) as { at?: unknown; companyId?: unknown }) : null;
    const age = typeof carried?.at === 'number' ? Date.now() - carried.at : Infinity;
    return carried?.companyId === companyId && age >= 0 && age <= CARRY_MS;
  } catch {
    return false;
  }
}

const current = document.currentScript;
if ((window as Marked)[LOADED]) console.info('Lobby widget: already loaded on this page; this copy of the snippet does nothing');
else if (current instanceof HTMLScriptElement && current.src) {
  (window as Marked)[LOADED] = true;
  start(current);
} else console.error('Lobby widget: load widget.js with a <script src="…"> tag');
