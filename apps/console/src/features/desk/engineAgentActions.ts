// The real AgentActions: session calls as before, and the call engine (packages/call, AgentDesk) for
// the queue and the calls. The engine is imported once the agent is signed in.
import type { AgentDesk, AgentSnapshot } from '@lobby/call';
import { placeholderAgentActions, type AgentActions } from '../../app/agentActions.ts';
import type { ConsoleStore, QueueEntry } from '../../app/store.ts';
import { bindAgentDesk } from '../call/agentInCall.ts';
import { guestDisplayName } from './guestName.ts';
import { bindTransfers } from '../routing/transferStore.ts';

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

  const apply = (snap: AgentSnapshot) => {
    const state = s();
    for (const e of snap.queue) if (e.lobby?.name) names.set(e.nick, e.lobby.name);
    const queue: QueueEntry[] = snap.queue.map((e) => ({
      callId: e.callId,
      guestName: guestDisplayName(e.nick, e.lobby?.name),
      kind: e.callType,
      assignmentId: e.assignmentId ?? 0,
      assignmentName: e.assignmentName ?? '',
      waitingSince: e.since,
      room: e.room,
      presence: e.statusText,
      userType: e.lobby?.userType ?? '',
      appointmentID: e.appointmentID,
      ...(e.offerExpiresAt !== null ? { offerExpiresAt: e.offerExpiresAt } : {}),
    }));
    state.setQueue(queue);
    const active = snap.activeCall;
    if (!active) {
      const ended = state.activeCall;
      // an answered call ended: offer the note after the call (wrap-up)
      if (ended?.startedAt != null) state.setWrapUp({ callId: ended.callId, guestName: ended.guestName });
      if (ended) state.resetCall();
    } else {
      state.setActiveCall({
        callId: active.callId,
        guestName: guestDisplayName(active.guestNick, names.get(active.guestNick)),
        kind: active.callType,
        assignmentName:
          queue.find((q) => q.callId === active.callId)?.assignmentName ??
          state.activeCall?.assignmentName ??
          '',
        startedAt: snap.phase === 'inCall' ? (state.activeCall?.startedAt ?? Date.now()) : null,
        guestPresence: active.guestStatus,
      });
      state.setStreams(
        snap.localStream,
        snap.remoteFeeds.map((f) => ({ id: f.feedId, display: f.display, stream: f.stream })),
      );
    }
    state.setError(snap.error);
    if (state.live !== snap.live) store.setState({ live: snap.live });
    if (state.mediaNotice !== snap.mediaNotice) store.setState({ mediaNotice: snap.mediaNotice });
  };

  const startDesk = () => {
    starting ??= (async () => {
      const engine = await import('@lobby/call');
      const user = s().user;
      const created = new engine.AgentDesk({
        api: engine.createConsoleApi(),
        ...(user?.name ? { displayName: user.name } : {}),
        ...endpoints(),
        ...(user ? { companyId: user.companyId } : {}),
      });
      created.on('change', apply);
      bindAgentDesk(created); // the in-call UI (chat, screen share, mute states): features/call
      bindTransfers(created); // transfers handed to us and the Transfer button: features/routing
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
      const muted = !s().audioMuted;
      desk?.setMuted('audio', muted);
      s().setAudioMuted(muted);
    },
    toggleVideo() {
      const muted = !s().videoMuted;
      desk?.setMuted('video', muted);
      s().setVideoMuted(muted);
    },
  };
}
