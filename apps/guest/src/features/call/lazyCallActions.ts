// CallActions whose implementation (and the call engine behind it) loads after the first screen:
// the first-load budget (≤ 110 kB gzip) has no room for StanzaJS, janus.js or the engine.
import type { CallActions } from '../../state/callActions.ts';
import type { GuestStore } from '../../state/store.ts';
import type { EngineCallActions } from './engineCallActions.ts';
import { sendEvent } from '../../journey/controller.ts';

export function lazyCallActions(store: GuestStore): CallActions {
  let loaded: Promise<EngineCallActions> | null = null;
  /** the loaded actions, for what must answer at once (the in-call UI's engine) */
  let ready: EngineCallActions | null = null;
  /** the in-call UI's listeners (useCallEngine): told when the actions load and when they make the engine */
  const engineListeners = new Set<() => void>();
  const tellEngine = () => {
    for (const listener of [...engineListeners]) listener();
  };
  const engine = () =>
    (loaded ??= import('./engineCallActions.ts').then((m) => {
      const actions = m.engineCallActions(store);
      ready = actions;
      actions.onEngine?.(tellEngine);
      tellEngine();
      return actions;
    }));

  // One tab per guest holds the XMPP session (resource `web`; journey/sessionLock.ts). As soon as the gate
  // lets the guest call, this tab takes the session lock and registers and connects; when another tab
  // holds it, this tab shows inCall and waits: it connects once the holder closes or hands over.
  let holding = false;
  let listening = false;
  let claiming: Promise<void> | null = null;
  const claim = (): Promise<void> =>
    (claiming ??= (async () => {
      const [{ guestTabs }, { sessionLock }] = await Promise.all([
        import('../../journey/tabs.ts'),
        import('../../journey/sessionLock.ts'),
      ]);
      const tabs = guestTabs();
      const lock = sessionLock();
      if (!(await lock.tryAcquire())) {
        store.getState().setOtherTabBusy(await tabs.otherTabInCall());
        sendEvent(store, { type: 'OTHER_TAB_IN_CALL' });
        await lock.acquire();
        sendEvent(store, { type: 'TAKE_OVER' }); // inCall → selection; elsewhere nothing
      }
      holding = true;
      tabs.holding(true);
      const actions = await engine();
      if (!listening) tabs.onTakeOver(handOver);
      listening = true;
      await actions.prepare();
    })().finally(() => {
      claiming = null;
    }));

  // Another tab asked for the session ("Use this tab"): give it up, then wait for it again.
  let handingOver = false;
  const handOver = () => {
    if (!holding || handingOver) return;
    handingOver = true;
    void (async () => {
      const [{ guestTabs }, { sessionLock }] = await Promise.all([
        import('../../journey/tabs.ts'),
        import('../../journey/sessionLock.ts'),
      ]);
      await (await engine()).handOver();
      holding = false;
      guestTabs().holding(false);
      sessionLock().release();
      handingOver = false;
      wantSession(store.getState());
    })().catch(() => {
      handingOver = false;
    });
  };

  const wants = (state: ReturnType<GuestStore['getState']>) =>
    !holding && !handingOver && state.phase === 'ready' && (state.screen === 'selection' || state.screen === 'preview');
  const wantSession = (state: ReturnType<GuestStore['getState']>) => {
    if (!wants(state)) return;
    // once the screen has painted: evaluating the engine's chunk first would hold the guest's first
    // screen (its largest contentful paint) on a slow phone; no click can come before a paint
    afterPaint(() => {
      if (wants(store.getState())) void claim().catch(() => undefined); // the Call button retries and shows what failed
    });
  };
  store.subscribe(wantSession);

  return {
    // the in-call UI's chat, devices and screen buttons reach the engine through these (useCallEngine)
    engine: () => ready?.engine?.() ?? null,
    onEngine(listener) {
      engineListeners.add(listener);
      return () => void engineListeners.delete(listener);
    },
    startCall: async (kind, resume) => (await engine()).startCall(kind, resume),
    cancel: async () => (await engine()).cancel(),
    hangup: async () => (await engine()).hangup(),
    // only a call in progress has anything to say, and its engine is loaded then
    pageLeaving: () => void loaded?.then((actions) => actions.pageLeaving()),
    moveOut: async () => (loaded ? (await loaded).moveOut() : null),
    toggleAudio: () => void engine().then((a) => a.toggleAudio()),
    toggleVideo: () => void engine().then((a) => a.toggleVideo()),
    callAgain: async () => (await engine()).callAgain(),
    confirmPreview: async () => (await engine()).confirmPreview(),
    submitRating: async (answer) => (await engine()).submitRating(answer),
    // the waiting claim() connects once the holder has handed the session over
    takeOver: async () => (await engine()).takeOver(),
    session: async () => (await engine()).session(),
    submitWelcomeForm: async (formId, answers) => (await engine()).submitWelcomeForm(formId, answers),
    book: async (booking) => (await engine()).book(booking),
    chooseDevices: (devices) => store.getState().setDevices(devices),
  };
}

/** Runs `run` in the task after the next frame's paint. */
function afterPaint(run: () => void): void {
  requestAnimationFrame(() => setTimeout(run, 0));
}
