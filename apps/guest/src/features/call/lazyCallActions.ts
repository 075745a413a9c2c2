// CallActions whose implementation (and the call engine behind it) loads after the first screen:
// the first-load budget (≤ 110 kB gzip) has no room for StanzaJS, janus.js or the engine.
import type { CallActions } from '../../app/callActions.ts';
import type { GuestStore } from '../../app/store.ts';
import type { EngineCallActions } from './engineCallActions.ts';

export function lazyCallActions(store: GuestStore): CallActions {
  let loaded: Promise<EngineCallActions> | null = null;
  const engine = () => (loaded ??= import('./engineCallActions.ts').then((m) => m.engineCallActions(store)));

  // Register and connect as soon as the company is known and a call is possible at all.
  const unsubscribe = store.subscribe((state) => {
    if (!state.company?.activated || state.screen === 'unsupported' || state.screen === 'inactive') return;
    unsubscribe();
    void engine()
      .then((actions) => actions.prepare())
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
    takeOver: async () => (await engine()).takeOver(),
  };
}
