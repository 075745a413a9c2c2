/**
 * What the guest is told while a page of the website takes its call back (docs/widget.md "Moving between
 * pages", "Into a new window"): `takingCallBack` is on from the resume's start until the call is back —
 * waiting again (a call no agent had answered), or the agent's media reaching this page (an answered
 * one) — or over. An answered call whose agent's media does not come (the agent stopped waiting for the
 * guest) stops saying so TAKE_BACK_MS after the resume started. The engine starts it with the resume and
 * reads it from each snapshot it makes.
 */
import type { ClockPort } from '../room/ports.ts';
import type { CallStatus } from '../state/callStatus.ts';
import type { ResumedCall } from './callStart.ts';

/**
 * How long an answered call's agent can still be waiting for the guest's next page: the agent's own wait
 * for a page change (docs/widget.md "Moving between pages": 45 s after the page went).
 */
export const TAKE_BACK_MS = 45_000;

interface TakingBack {
  callId: string;
  /** an agent had answered it: it is back once that agent's media reaches this page */
  answered: boolean;
}

/** The call as the engine's snapshot has it. */
interface CallView {
  phase: string;
  callId: string | null;
  status: Pick<CallStatus, 'streamsReady'>;
}

export class CallTakeBack {
  readonly #clock: ClockPort;
  /** the notice went by the clock, not by a change of the snapshot: the engine makes a new one */
  readonly #expired: () => void;
  #taking: TakingBack | null = null;

  constructor(clock: ClockPort, expired: () => void) {
    this.#clock = clock;
    this.#expired = expired;
  }

  /** The guest takes `resume` back (GuestCall.call with a resumed call). */
  start(resume: ResumedCall): void {
    const taking = { callId: resume.callId, answered: resume.answered };
    this.#taking = taking;
    this.#clock.setTimeout(() => {
      if (this.#taking !== taking) return;
      this.#taking = null;
      this.#expired();
    }, TAKE_BACK_MS);
  }

  /** Whether the guest is told its call is being taken back, with the call of `view`. */
  taking(view: CallView): boolean {
    const taking = this.#taking;
    // the resume has not written its call yet (or another call is on): nothing to say of this one
    if (!taking || view.callId !== taking.callId) return false;
    if (view.phase === 'starting') return true;
    const back = (view.phase === 'waiting' || view.phase === 'ongoing') && (!taking.answered || view.status.streamsReady.remote);
    const over = view.phase !== 'waiting' && view.phase !== 'ongoing';
    if (!back && !over) return true;
    this.#taking = null;
    return false;
  }
}
