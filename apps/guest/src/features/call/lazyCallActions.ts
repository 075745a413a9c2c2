// CallActions whose implementation (and the call engine behind it) loads after the first screen:
// the first-load budget (≤ 110 kB gzip) has no room for StanzaJS, janus.js or the engine.
import type { CallActions } from '../../app/callActions.ts';
import type { GuestStore } from '../../app/store.ts';
import type { EngineCallActions } from './engineCallActions.ts';
import { sendEvent } from '../../journey/controller.ts';

export function lazyCallActions(store: GuestStore): CallActions {
  let loaded: Promise<EngineCallActions> | null = null;
  const engine = () => (loaded ??= import('./engineCallActions.ts').then((m) => m.engineCallActions(store)));

  // Register and connect as soon as the gate lets the guest call — unless another tab of this guest is
  // in a call (it holds the XMPP session): then this tab shows inCall until the guest takes over.
  const unsubscribe = store.subscribe((state) => {
    if (state.phase !== 'ready' || (state.screen !== 'selection' && state.screen !== 'preview')) return;
    unsubscribe();
    void import('../../journey/tabs.ts')
      .then(({ guestTabs }) => guestTabs().otherTabInCall())
      .then((busy) => {
        if (busy) {
          sendEvent(store, { type: 'OTHER_TAB_IN_CALL' });
          return;
        }
        return engine().then((actions) => actions.prepare());
      })
      .catch(() => undefined); // the Call button retries and shows what failed
  });

  return {
    startCall: async (kind) => (await engine()).startCall(kind),
    cancel: async () => (await engine()).cancel(),
    hangup: async () => (await engine()).hangup(),
    toggleAudio: () => void engine().then((a) => a.toggleAudio()),
    toggleVideo: () => void engine().then((a) => a.toggleVideo()),
    callAgain: async () => (await engine()).callAgain(),
    confirmPreview: async () => (await engine()).confirmPreview(),
    submitRating: async (answer) => (await engine()).submitRating(answer),
    takeOver: async () => {
      const actions = await engine();
      await actions.takeOver();
      void actions.prepare().catch(() => undefined);
    },
    session: async () => (await engine()).session(),
    submitWelcomeForm: async (formId, answers) => (await engine()).submitWelcomeForm(formId, answers),
    chooseDevices: (devices) => store.getState().setDevices(devices),
  };
}
