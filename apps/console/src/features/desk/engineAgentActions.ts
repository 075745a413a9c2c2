// The real AgentActions: session calls as before, and the call engine (packages/call, AgentDesk) for
// the queue and the calls; its snapshots feed the console's one store. The engine is imported once the
// agent is signed in.
import type { AgentDesk, AgentSnapshot } from '@lobby/call';
import type { AgentActions } from '../../state/agentActions.ts';
import type { ConsoleStore } from '../../state/store.ts';
import { fromDeskSnapshot } from '../../state/deskSnapshot.ts';
import { placeholderAgentActions } from './sessionActions.ts';
import { rememberedNoiseSuppression } from '@lobby/call-react';
import { NOISE_SUPPRESSION } from '../call/noiseSuppression.ts';

function endpoints(loc: Location = window.location) {
  const ws = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return {
    xmppWsUrl: `${ws}//${loc.host}/xmpp-websocket`,
    janusServers: [`${ws}//${loc.host}/janus`, `${loc.origin}/janus-http`],
  };
}

export function engineAgentActions(store: ConsoleStore): AgentActions {
  const s = () => store.getState();
  /** the names guests announced, by their room nick (kept for the call after it leaves the queue) */
  const names = new Map<string, string>();
  const session = placeholderAgentActions(store);
  let desk: AgentDesk | null = null;
  let starting: Promise<void> | null = null;
  /** the desk the in-call UI and the transfers reach (useDesk), from its creation on, and who is told */
  let shown: AgentDesk | null = null;
  const deskListeners = new Set<() => void>();

  // every snapshot becomes the store's data through one mapping (state/deskSnapshot.ts)
  const apply = (snap: AgentSnapshot) => store.setState(fromDeskSnapshot(snap, s(), names, Date.now()));

  const startDesk = () => {
    starting ??= (async () => {
      const engine = await import('@lobby/call');
      const user = s().user;
      const created = new engine.AgentDesk({
        api: engine.createConsoleApi(),
        ...(user?.name ? { displayName: user.name } : {}),
        ...(user?.profileImageUrl ? { profileImageUrl: user.profileImageUrl } : {}),
        ...endpoints(),
        ...(user ? { companyId: user.companyId } : {}),
        // sound first on a bad line: the camera steps down, then pauses, and comes back (docs/protocol.md "Line steps")
        lineSteps: true,
        noiseSuppression: rememberedNoiseSuppression(NOISE_SUPPRESSION.storageKey, NOISE_SUPPRESSION.byDefault),
      });
      created.on('change', apply);
      // the desk's methods for the in-call UI (chat, screen share, hold, devices) and the transfers
      shown = created;
      for (const listener of [...deskListeners]) listener();
      store.setState({ transfers: { incoming: created.snapshot.transfers } });
      apply(created.snapshot);
      desk = created;
      created.setAway(s().availability === 'away');
      await created.start();
    })().catch((error: unknown) => {
      starting = null;
      s().setError(error instanceof Error ? error.message : String(error));
    });
    return starting;
  };

  const stopDesk = async () => {
    const current = desk;
    desk = null;
    starting = null;
    await current?.stop();
  };

  // The desk runs exactly while somebody is signed in.
  store.subscribe((state, previous) => {
    if (state.session === 'authenticated' && previous.session !== 'authenticated') void startDesk();
    if (state.session !== 'authenticated' && previous.session === 'authenticated') void stopDesk();
  });

  return {
    ...session,
    desk: () => shown,
    onDesk(listener) {
      deskListeners.add(listener);
      return () => void deskListeners.delete(listener);
    },
    async logout() {
      await stopDesk();
      await session.logout();
    },
    setAvailability(availability) {
      void session.setAvailability(availability);
      void desk?.setAway(availability === 'away'); // round robin skips agents who are away
    },
    async decline(callId) {
      await desk?.decline(callId).catch((error: unknown) => {
        s().setError(error instanceof Error ? error.message : String(error));
      });
    },
    async answer(callId) {
      await desk?.answer(callId).catch(() => undefined); // the snapshot carries the error
    },
    async hangup() {
      await desk?.hangup();
    },
    toggleAudio() {
      desk?.setMuted('audio', !s().audioMuted); // the snapshot brings the new state
    },
    toggleVideo() {
      desk?.setMuted('video', !s().videoMuted);
    },
  };
}
