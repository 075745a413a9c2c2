// The real CallActions: the call engine (packages/call, GuestCall) feeds the app's one store (state/store.ts)
// through `apply`, the only place its snapshots are read; its phases become the journey's events.
// The engine is imported lazily, so StanzaJS and janus.js never weigh on the first screen.
import type { GuestApi, GuestCall, GuestCallSnapshot } from '@lobby/call';
import { submitForm, submitRating, type GuestSession } from '../../api/guest.ts';
import { sendEvent } from '../../journey/controller.ts';
import { guestTabs } from '../../journey/tabs.ts';
import type { Company } from '../../api/company.ts';
import type { CallActions } from '../../state/callActions.ts';
import type { GuestStore } from '../../state/store.ts';
import { serviceTypeFor } from '../widget/context.ts';
import { widgetPrefill } from '../widget/bridge.ts';
import { carriesCalls, carryCall } from '../widget/carriedCall.ts';
import { movedGuestId, type MovedCall } from '../widget/movedCall.ts';
import { guestNameAnswer } from '@lobby/contracts/guestLabel';

import { streamWatermarkOf } from './streamWatermark.ts';
import { watchWaitPlace } from '../waiting/waitPlace.ts';
import { rememberedNoiseSuppression } from '@lobby/call-react';
import { NOISE_SUPPRESSION } from '../devices/noiseSuppression.ts';

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
  pageLeaving(): void;
  moveOut(): Promise<MovedCall | null>;
  /** Registers and connects in the background; the Call button waits for it when pressed early. */
  prepare(): Promise<void>;
  /**
   * Another tab takes the guest's session over: hang up (when in a call) and disconnect, so that the
   * other tab's session with the same resource does not kick this one. A later prepare() starts afresh.
   */
  handOver(): Promise<void>;
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
  /** the guest id prepare() registered with (a call moved into a new window goes with it) */
  let guestId = '';
  /** the call went into a new window (↗): leaving this page neither ends nor carries it */
  let movedOut = false;
  let preparing: Promise<GuestCall> | null = null;
  let lastPhase: GuestCallSnapshot['phase'] | null = null;
  /** the engine the in-call UI reaches (useCallEngine), from its creation on, and who is told */
  let shown: GuestCall | null = null;
  const engineListeners = new Set<() => void>();
  const tabs = guestTabs();

  const apply = (snap: GuestCallSnapshot) => {
    const state = s();
    if (state.inCall.status !== snap.status || state.inCall.localScreen !== snap.localScreen) {
      state.setInCall({ status: snap.status, localScreen: snap.localScreen });
    }
    // the microphone and camera are the engine's: the store shows its state, never a copy of its own
    if (state.audioMuted !== snap.muted.audio) state.setAudioMuted(snap.muted.audio);
    if (state.videoMuted !== snap.muted.video) state.setVideoMuted(snap.muted.video);
    if (state.localStream !== snap.localStream) state.setLocalStream(snap.localStream);
    const remotes = snap.remoteFeeds;
    if (
      remotes.length !== state.remoteFeeds.length ||
      remotes.some((r, i) => r.stream !== state.remoteFeeds[i]?.stream)
    ) {
      state.setRemoteFeeds(remotes);
    }
    if (state.mediaNotice !== snap.mediaNotice) store.setState({ mediaNotice: snap.mediaNotice });
    if (state.takingCallBack !== snap.takingCallBack) store.setState({ takingCallBack: snap.takingCallBack });
    if (state.networkQuality !== snap.networkQuality) store.setState({ networkQuality: snap.networkQuality });
    if (snap.phase === lastPhase) return;
    lastPhase = snap.phase;
    followWaitPlace(snap.phase === 'waiting');
    // the engine's phases become the journey's events (docs/guest-journey.md)
    switch (snap.phase) {
      case 'ongoing':
        sendEvent(store, { type: 'ANSWERED' });
        tabs.inCall(true);
        break;
      case 'waiting':
        tabs.inCall(true);
        break;
      case 'outOfQuota':
      case 'blocked':
        sendEvent(store, { type: 'REPORT', status: snap.phase });
        tabs.inCall(false);
        break;
      case 'ended':
        sendEvent(store, { type: 'ENDED', by: snap.endReason === 'guest' ? 'guest' : 'agent' });
        tabs.inCall(false);
        break;
      case 'failed': {
        tabs.inCall(false);
        // the engine's UNKNOWN_APPOINTMENT (a string here: the engine itself loads only when a call starts)
        const unknownAppointment = snap.error === 'unknownAppointment';
        if (
          snap.error !== 'disabledCamera' &&
          !unknownAppointment &&
          !['waiting', 'ongoing', 'selection', 'preview'].includes(s().screen)
        )
          break;
        if (snap.error !== 'disabledCamera')
          s().setError({ code: 'call-failed', ...(snap.error ? { message: snap.error } : {}) });
        sendEvent(store, {
          type: 'FAILED',
          disabledCamera: snap.error === 'disabledCamera',
          unknownAppointment,
        });
        break;
      }
      default:
        break;
    }
  };

  // The engine's API client, watched: the journey's own calls (form, geofence, rating) reuse its token,
  // and the rating needs the report id.
  /** the guest's name from its welcome form, once submitted */
  let formName: string | null = null;
  let session: GuestSession | null = null;
  let lastReport: { id: number; status: string } | null = null;
  /** the call id of the latest report added: the place in the queue is asked for it */
  let lastCallId: string | null = null;
  let stopWaitPlace: (() => void) | null = null;
  /** asks for the place in the queue while the call waits; forgets it once it does not */
  const followWaitPlace = (waiting: boolean) => {
    if (waiting && !stopWaitPlace && session && lastCallId) {
      stopWaitPlace = watchWaitPlace({
        token: session.accessToken,
        callId: lastCallId,
        onPlace: (place) => store.setState({ waitPlace: place.waiting ? place : null }),
      });
    } else if (!waiting) {
      stopWaitPlace?.();
      stopWaitPlace = null;
      if (s().waitPlace) store.setState({ waitPlace: null });
    }
  };
  const videoConstraints: MediaTrackConstraints = {
    width: { ideal: 1440, max: 1440 },
    height: { ideal: 1080 },
  };
  // the devices chosen on the preview screen; read by the engine at each call and resume
  const audioConstraints: MediaTrackConstraints = {};
  const watchedApi = (api: GuestApi, companyId: number): GuestApi => ({
    ...api,
    async register(guestId, company) {
      const registration = await api.register(guestId, company);
      session = {
        username: registration.username,
        accessToken: registration.access_token,
        companyId,
        serviceType: serviceTypeFor(s().company),
      };
      return registration;
    },
    async addReport(body) {
      const report = await api.addReport(body);
      lastReport = report;
      lastCallId = body.call_id;
      return report;
    },
  });

  const prepare = (): Promise<GuestCall> => {
    preparing ??= (async () => {
      const engine = await import('@lobby/call');
      // a window the panel's call moved into is the panel's guest (docs/widget.md "Into a new window")
      guestId = movedGuestId() ?? engine.getOrCreateGuestId(engine.browserGuestIdEnvironment());
      const appointmentReference = s().appointmentReference;
      const details = company();
      const created = new engine.GuestCall({
        // the name the agents see: the welcome form's, else the website's pre-fill (docs/protocol.md)
        displayName: () => formName ?? widgetPrefill().name ?? null,
        api: watchedApi(engine.createGuestApi(), details.id),
        recordCalls: details.recordCalls !== false,
        videoConstraints,
        audioConstraints,
        location: () => s().position, // read by the gate's location check (requestLocation)
        companyId: details.id,
        ...endpoints(),
        callMethod: details.callMethod ?? 'mediaServer',
        roundRobin: !!details.roundRobin,
        // the widget's panel: the agents wait for the website's next page (docs/widget.md "Moving between pages")
        pageChanges: carriesCalls(),
        webview: s().webview,
        // sound first on a bad line: the camera steps down, then pauses, and comes back (docs/protocol.md "Line steps")
        lineSteps: true,
        watermark: streamWatermarkOf(details),
        noiseSuppression: rememberedNoiseSuppression(NOISE_SUPPRESSION.storageKey, NOISE_SUPPRESSION.byDefault),
        serviceType: serviceTypeFor(details), // 'widget' when opened by an allowed website's widget
        // the engine looks the appointment up by its reference (id, agent) once the guest is registered
        appointment: appointmentReference
          ? { reference: appointmentReference, id: '', agentUsername: '' }
          : null,
        environment: () => ({
          pageHidden: document.visibilityState === 'hidden',
          isAndroid: isAndroidMobile(),
          notificationAllowed: typeof Notification !== 'undefined' && Notification.permission === 'granted',
        }),
      });
      created.on('change', apply);
      // the in-call UI's methods (chat, screen share, devices)
      shown = created;
      for (const listener of [...engineListeners]) listener();
      apply(created.snapshot);
      window.addEventListener('pagehide', () => {
        // the widget's frame goes with the website's page: the next page takes the call back
        // (docs/widget.md "Moving between pages"); anywhere else leaving the page ends the call
        if (movedOut) return;
        if (!carriesCalls()) return created.pageHide();
        const carried = created.pageChange();
        if (carried) carryCall({ ...carried, ...handedOver(), companyId: details.id });
      });
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
  /** What the page that takes the call back needs besides the engine's call (docs/widget.md "Moving between pages"). */
  const handedOver = () => {
    const { assignmentId, waitingSince, callStartedAt } = s();
    return {
      assignmentId: assignmentId === null ? null : Number(assignmentId),
      reportId: lastReport?.id ?? null,
      waitingSince,
      callStartedAt,
    };
  };
  /**
   * Cancel pressed after Call but before the engine started the call (it was still registering and
   * connecting, or choosing the room): the engine has nothing to hang up yet, so the press is kept here
   * and the call is not started.
   */
  let cancelled = false;
  const stopIfCancelled = (): boolean => {
    if (!cancelled) return false;
    tabs.inCall(false);
    sendEvent(store, { type: 'ENDED', by: 'guest' });
    return true;
  };

  return {
    engine: () => shown,
    onEngine(listener) {
      engineListeners.add(listener);
      return () => void engineListeners.delete(listener);
    },
    prepare: async () => {
      await prepare();
    },
    async startCall(kind, resume) {
      const state = s();
      if (resume?.reportId) lastReport = { id: resume.reportId, status: 'ok' }; // the rating after it
      state.setCallType(kind);
      state.setError(null);
      lastPhase = null;
      // busy for other tabs from the press on: the engine publishes only after the report and the devices
      tabs.inCall(true);
      sendEvent(store, { type: 'CALL' });
      // a call taken back: its waiting and call clocks go on from the previous page's
      const past = (at: number | null | undefined) => (typeof at === 'number' && at <= Date.now() ? at : null);
      if (past(resume?.waitingSince)) state.setWaitingSince(past(resume?.waitingSince));
      if (past(resume?.callStartedAt)) state.setCallStartedAt(past(resume?.callStartedAt));
      cancelled = false;
      try {
        const engineCall = await ensureCall();
        if (stopIfCancelled()) return;
        const assignment = state.assignmentId;
        if (assignment !== null) await engineCall.selectAssignment(Number(assignment));
        if (stopIfCancelled()) return;
        const camera = s().videoDeviceId;
        if (camera) videoConstraints.deviceId = { exact: camera };
        else delete videoConstraints.deviceId;
        const microphone = s().audioDeviceId;
        if (microphone) audioConstraints.deviceId = { exact: microphone };
        else delete audioConstraints.deviceId;
        await engineCall.call(kind, resume);
      } catch (error) {
        if (call?.snapshot.phase === 'failed') return; // the snapshot already moved the screen
        s().setError({
          code: 'call-failed',
          message: error instanceof Error ? error.message : String(error),
        });
        tabs.inCall(false);
        sendEvent(store, { type: 'FAILED' });
      }
    },
    async cancel() {
      cancelled = true;
      await call?.hangup();
    },
    async hangup() {
      await call?.hangup();
    },
    pageLeaving() {
      call?.pageLeaving();
    },
    moveOut() {
      // the call goes into a new window as into the website's next page (docs/widget.md "Into a new window")
      const carried = carriesCalls() ? call?.pageChange() : null;
      if (!carried) return Promise.resolve(null);
      movedOut = true;
      return Promise.resolve({ ...carried, ...handedOver(), companyId: company().id, guestId });
    },
    toggleAudio() {
      call?.setMuted('audio', !s().audioMuted); // the snapshot brings the new state (apply)
    },
    toggleVideo() {
      call?.setMuted('video', !s().videoMuted);
    },
    callAgain() {
      s().setError(null);
      lastPhase = null;
      sendEvent(store, { type: 'CALL_AGAIN' });
    },
    confirmPreview() {
      sendEvent(store, { type: 'PREVIEW_DONE' });
    },
    async submitRating(answer) {
      const company = s().company;
      const current = session;
      const report = lastReport;
      // skipped unless the company, the guest and (for a rating form) the form are known
      if (!company || !current || !report) return;
      const form = company.advanceRating && company.ratingForm ? company.ratingForm.id : null;
      const answers =
        form !== null && answer.answers
          ? answer.answers
          : { score: answer.score, ...(answer.comment ? { comment: answer.comment } : {}) };
      // a failure reaches the rating screen, which tells the guest and offers to send again
      await submitRating(current, report.id, form, answers);
    },
    takeOver() {
      // lazyCallActions waits for the session lock, then leaves the inCall screen
      tabs.takeOver();
    },
    async handOver() {
      const current = call ?? (await preparing?.catch(() => null)) ?? null;
      call = null;
      preparing = null;
      lastPhase = null;
      followWaitPlace(false);
      tabs.inCall(false);
      await current?.close(); // hangs up first when waiting or in the call
    },
    async session() {
      await prepare();
      return session;
    },
    async submitWelcomeForm(formId, answers) {
      await prepare();
      if (!session) throw new Error('no guest session');
      await submitForm(session, formId, answers);
      formName = guestNameAnswer(answers) ?? formName;
      s().setFormRequired(false);
      // the gate continues: preview when the company has one, else the call buttons
      sendEvent(store, { type: 'FORM_DONE' });
    },
    async book(booking) {
      await prepare();
      if (!session) throw new Error('no guest session');
      const waiting = s().screen === 'waiting' && lastCallId !== null;
      const { postBooking } = await import('../../api/booking.ts');
      const booked = await postBooking(session, waiting && lastCallId ? { ...booking, call_id: lastCallId } : booking);
      // the guest leaves the queue as with Leave the queue; the report already says booked
      if (waiting) {
        cancelled = true;
        await call?.hangup();
      }
      return booked;
    },
    chooseDevices(devices) {
      s().setDevices(devices);
    },
    async dispose() {
      followWaitPlace(false);
      await call?.close();
    },
  };
}
