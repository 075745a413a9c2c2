/**
 * Starting the guest's call (GuestCall.call): camera and microphone → report add (ok | outOfQuota |
 * blocked) → Janus room → publish → OpenCall|target|callId. A call taken back from the website's previous
 * page (docs/widget.md "Moving between pages") keeps its id and report: it is published again only.
 * The engine hands in its snapshot, its features and its teardown.
 */
import type { ReportStatus } from '@lobby/contracts';
import { isCallIdOf, newCallId } from '../callId.ts';
import type { SignallingPort } from '../ports/signalling.ts';
import { initialCallStatus } from '../state/callStatus.ts';
import type { GuestReport } from './callReport.ts';
import type { GuestCallMedia } from './callMedia.ts';
import type { GuestRoomPresence } from './roomPresence.ts';
import type { EndReason, GuestCallSnapshot } from './guestSnapshot.ts';
import type { CallKind } from '../presence.ts';

/** The call a page of the website hands to its next page (docs/widget.md "Moving between pages"). */
export interface ResumedCall {
  callId: string;
  initialCallId: string;
  answered: boolean;
}

export interface CallStartSteps {
  username: string;
  assignmentId: number;
  appointmentReference: string | null;
  xmpp: SignallingPort;
  report: GuestReport;
  presence: GuestRoomPresence;
  media: GuestCallMedia;
  read: () => GuestCallSnapshot;
  write: (patch: Partial<GuestCallSnapshot>) => void;
  localMedia: (kind: CallKind) => Promise<MediaStream>;
  teardown: (reason: EndReason) => Promise<void>;
  /** the call is over: its report gets its end time (the server destroys its room) */
  ended: (callId: string) => void;
}

/** Starts a call; resolves with the report status once the guest is published (or stopped). */
export async function startCall(steps: CallStartSteps, kind: CallKind, resume?: ResumedCall): Promise<ReportStatus> {
  const { report, presence, read, write } = steps;
  if (resume && !isCallIdOf(resume.callId, steps.username)) throw new Error('not a call of this guest');
  await presence.enter();
  const callId = resume?.callId ?? newCallId(steps.username);
  if (resume?.answered) report.alreadyAnswered(callId);
  write({
    phase: 'starting',
    callId,
    initialCallId: resume?.initialCallId ?? callId,
    callKind: kind,
    endReason: null,
    error: null,
    remoteFeeds: [],
    stages: {},
    muted: { audio: false, video: false },
    localScreen: null,
    status: {
      ...initialCallStatus(),
      connection: read().status.connection,
      callInitiated: read().status.callInitiated,
    },
  });
  // The guest may hang up at any await below (Cancel while the call starts): from then on this call
  // must not open the camera, publish or change the state of the screen that followed.
  const current = () => read().callId === callId && read().phase === 'starting';
  // The camera and microphone first: a guest who refuses them never enters the queue, so no report is
  // made for it (docs/guest-journey.md: the call is reported once the guest can wait for an agent; a
  // refused camera is not an abandoned call)
  let localStream: MediaStream;
  try {
    localStream = await steps.localMedia(kind);
  } catch (error) {
    if (!current()) return 'ok';
    const message = error instanceof Error ? error.message : String(error);
    console.warn(`call: no camera or microphone, no call reported: ${message}`);
    write({ phase: 'failed', error: message });
    throw error;
  }
  const stopCamera = () => {
    for (const track of localStream.getTracks()) track.stop();
  };
  if (!current()) {
    stopCamera();
    return 'ok';
  }
  let status: ReportStatus;
  try {
    status = resume ? 'ok' : await report.add(callId, steps.assignmentId, steps.appointmentReference);
  } catch (error) {
    stopCamera();
    throw error;
  }
  if (!current() || status !== 'ok') stopCamera();
  if (!current()) return status;
  if (status !== 'ok') {
    write({ phase: status });
    return status;
  }
  try {
    write({ localStream, status: { ...read().status, streamsReady: { local: true, remote: false } } });
    if (!resume) await report.initiated(callId);
    if (!current()) return 'ok'; // the teardown took the camera
    await steps.media.start(callId, kind, localStream, steps.username, steps.xmpp);
    if (!current()) return 'ok'; // ended meanwhile: the teardown closed the media session
    presence.followVisibility();
    write({
      phase: read().status.peers.length ? 'ongoing' : 'waiting',
      status: { ...read().status, callStarted: true },
    });
    presence.announce();
    return 'ok';
  } catch (error) {
    // a step failing because the guest ended the call meanwhile is not a failure of the call
    if (!current()) return 'ok';
    const message = error instanceof Error ? error.message : String(error);
    report.bug(callId, message);
    await steps.teardown('error');
    // the call is over (the media room could not be joined…): its report gets its end time (and the
    // server destroys its room), or the reports count it "Waiting or open"
    steps.ended(callId);
    write({ phase: 'failed', error: message });
    throw error;
  }
}
