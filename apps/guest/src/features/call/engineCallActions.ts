// The real CallActions: the call engine (packages/call, GuestCall) drives the store.
// The engine is imported lazily, so StanzaJS and janus.js never weigh on the first screen.
import type { GuestCall, GuestCallSnapshot } from '@lobby/call';
import type { Company } from '../../api/company.ts';
import type { CallActions } from '../../app/callActions.ts';
import type { GuestStore } from '../../app/store.ts';

/** Same-origin endpoints: the server proxies ejabberd and Janus. */
export function endpoints(loc: Location = window.location) {
  const ws = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return {
    xmppWsUrl: `${ws}//${loc.host}/xmpp-websocket`,
    janusServers: [`${ws}//${loc.host}/janus`, `${loc.origin}/janus-http`],
  };
}

function isAndroidMobile(): boolean {
  return /Android/i.test(navigator.userAgent) && /Mobile/i.test(navigator.userAgent);
}

export interface EngineCallActions extends CallActions {
  /** Registers and connects in the background; the Call button waits for it when pressed early. */
  prepare(): Promise<void>;
  dispose(): Promise<void>;
}

export function engineCallActions(store: GuestStore): EngineCallActions {
  const s = () => store.getState();
  const company = (): Company => {
    const loaded = s().company;
    if (!loaded) throw new Error('company details not loaded');
    return loaded;
  };
  let call: GuestCall | null = null;
  let preparing: Promise<GuestCall> | null = null;
  let lastPhase: GuestCallSnapshot['phase'] | null = null;

  const apply = (snap: GuestCallSnapshot) => {
    const state = s();
    if (state.localStream !== snap.localStream) state.setLocalStream(snap.localStream);
    const remotes = snap.remoteFeeds.map((f) => ({ id: f.feedId, display: f.display, stream: f.stream }));
    if (
      remotes.length !== state.remoteStreams.length ||
      remotes.some((r, i) => r.stream !== state.remoteStreams[i]?.stream)
    ) {
      state.setRemoteStreams(remotes);
    }
    if (snap.phase === lastPhase) return;
    lastPhase = snap.phase;
    switch (snap.phase) {
      case 'starting':
      case 'waiting':
        if (!state.waitingSince) state.setWaitingSince(Date.now());
        state.setScreen('waiting');
        break;
      case 'ongoing':
        state.setCallStartedAt(Date.now());
        state.setScreen('ongoing');
        break;
      case 'outOfQuota':
        state.setScreen('outOfQuota');
        break;
      case 'blocked':
        state.setScreen('blocked');
        break;
      case 'ended': {
        const answered = state.callStartedAt !== null;
        state.resetCall();
        if (answered && company().showRatingPage) {
          state.setScreen('rating');
        } else {
          state.setEndReason(
            snap.endReason === 'guest' ? (answered ? 'ended' : 'cancelled') : answered ? 'ended' : 'noAnswer',
          );
          state.setScreen('abandoned');
        }
        break;
      }
      case 'failed':
        if (snap.error === 'disabledCamera') {
          state.setUnsupportedReason('media');
          state.setScreen('unsupported');
        } else {
          state.resetCall();
          state.setError({ code: 'call-failed', ...(snap.error ? { message: snap.error } : {}) });
          state.setEndReason('failed');
          state.setScreen('abandoned');
        }
        break;
      default:
        break;
    }
  };

  const prepare = (): Promise<GuestCall> => {
    preparing ??= (async () => {
      const engine = await import('@lobby/call');
      const guestId = engine.getOrCreateGuestId(engine.browserGuestIdEnvironment());
      const appointmentReference = s().appointmentReference;
      const details = company();
      const created = new engine.GuestCall({
        api: engine.createGuestApi(),
        companyId: details.id,
        ...endpoints(),
        callMethod: details.callMethod ?? 'mediaServer',
        roundRobin: !!details.roundRobin,
        webview: s().webview,
        serviceType: 'talk',
        appointment: appointmentReference
          ? { reference: appointmentReference, id: appointmentReference, agentUsername: '' }
          : null,
        environment: () => ({
          pageHidden: document.visibilityState === 'hidden',
          isAndroid: isAndroidMobile(),
          notificationAllowed: typeof Notification !== 'undefined' && Notification.permission === 'granted',
        }),
      });
      created.on('change', apply);
      window.addEventListener('pagehide', () => created.pageHide());
      const assignment = s().assignmentId;
      await created.prepare(
        guestId,
        typeof assignment === 'number' ? assignment : assignment ? Number(assignment) : undefined,
      );
      call = created;
      return created;
    })();
    preparing.catch(() => {
      preparing = null; // a later Call press tries again
    });
    return preparing;
  };

  const ensureCall = async (): Promise<GuestCall> => call ?? prepare();

  return {
    prepare: async () => {
      await prepare();
    },
    async startCall(kind) {
      const state = s();
      state.setCallType(kind);
      state.setError(null);
      state.setWaitingSince(Date.now());
      state.setScreen('waiting');
      try {
        const engineCall = await ensureCall();
        const assignment = state.assignmentId;
        if (assignment !== null) await engineCall.selectAssignment(Number(assignment));
        await engineCall.call(kind);
      } catch (error) {
        if (call?.snapshot.phase === 'failed') return; // the snapshot already moved the screen
        s().resetCall();
        s().setError({
          code: 'call-failed',
          message: error instanceof Error ? error.message : String(error),
        });
        s().setEndReason('failed');
        s().setScreen('abandoned');
      }
    },
    async cancel() {
      await call?.hangup();
    },
    async hangup() {
      await call?.hangup();
    },
    toggleAudio() {
      const muted = !s().audioMuted;
      call?.setMuted('audio', muted);
      s().setAudioMuted(muted);
    },
    toggleVideo() {
      const muted = !s().videoMuted;
      call?.setMuted('video', muted);
      s().setVideoMuted(muted);
    },
    callAgain() {
      s().resetCall();
      s().setError(null);
      lastPhase = null;
      s().setScreen('selection');
    },
    confirmPreview() {
      s().setScreen('selection');
    },
    submitRating() {
      // issue 4: POST /api/rating-form/submissions
    },
    takeOver() {
      s().setScreen('selection');
    },
    async dispose() {
      await call?.close();
    },
  };
}
