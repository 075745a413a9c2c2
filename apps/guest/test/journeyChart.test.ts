import { describe, expect, it } from 'vitest';
import { gate, journeyAt, transition, type GateFacts, type JourneyState } from '../src/journey/chart.ts';

const facts = (over: Partial<GateFacts> = {}): GateFacts => ({
  activated: true,
  automated: false,
  allowAutomation: false,
  browser: null,
  open: true,
  needsLocation: false,
  needsForm: false,
  previewScreen: false,
  previewDone: false,
  ...over,
});

describe('gate (company loaded → first screen)', () => {
  it('when the company is not activated, then inactive wins over every other rule', () => {
    expect(gate(facts({ activated: false, automated: true, browser: 'browser', open: false }))).toEqual({
      screen: 'inactive',
    });
  });
  it('when the browser is automated and the deployment does not allow it, then bot', () => {
    expect(gate(facts({ automated: true }))).toEqual({ screen: 'bot' });
  });
  it('when the browser is automated and automation is allowed, then the journey goes on', () => {
    expect(gate(facts({ automated: true, allowAutomation: true }))).toEqual({
      screen: 'selection',
      form: false,
    });
  });
  it('when the browser has not been checked, then the browser check runs first', () => {
    const { browser: _omit, ...unchecked } = facts();
    expect(gate(unchecked)).toEqual({ check: 'browser' });
  });
  it('when a browser check fails, then unsupported with its reason, before the schedule', () => {
    expect(gate(facts({ browser: 'network', open: false }))).toEqual({
      screen: 'unsupported',
      reason: 'network',
    });
  });
  it('when outside opening hours, then schedule, before any location request', () => {
    expect(gate(facts({ open: false, needsLocation: true }))).toEqual({ screen: 'schedule' });
  });
  it('when the location is needed and unknown, then the location check runs', () => {
    expect(gate(facts({ needsLocation: true }))).toEqual({ check: 'location' });
  });
  it('when the geofence says outside, then outofzone', () => {
    expect(gate(facts({ needsLocation: true, location: 'outside' }))).toEqual({ screen: 'outofzone' });
  });
  it('when inside the zone, then the journey goes on', () => {
    expect(gate(facts({ needsLocation: true, location: 'inside' }))).toEqual({
      screen: 'selection',
      form: false,
    });
  });
  it('when the welcome form is on and not yet asked, then the form check runs', () => {
    expect(gate(facts({ needsForm: true }))).toEqual({ check: 'form' });
  });
  it('when the form is required, then selection shows the form first, even with a preview', () => {
    expect(gate(facts({ needsForm: true, formRequired: true, previewScreen: true }))).toEqual({
      screen: 'selection',
      form: true,
    });
  });
  it('when the form was already sent and the preview is on, then preview', () => {
    expect(gate(facts({ needsForm: true, formRequired: false, previewScreen: true }))).toEqual({
      screen: 'preview',
    });
  });
  it('when the preview was done, then selection', () => {
    expect(gate(facts({ previewScreen: true, previewDone: true }))).toEqual({
      screen: 'selection',
      form: false,
    });
  });
});

describe('transition (the call)', () => {
  const rating = { showRatingPage: true };
  const noRating = { showRatingPage: false };
  const at = (screen: JourneyState['screen'], over: Partial<JourneyState> = {}): JourneyState => ({
    ...journeyAt(screen),
    ...over,
  });

  it('when the guest calls from selection, then waiting', () => {
    expect(transition(at('selection'), { type: 'CALL' }, rating).screen).toBe('waiting');
  });
  it('when a call is pressed anywhere else, then nothing changes', () => {
    const state = at('schedule');
    expect(transition(state, { type: 'CALL' }, rating)).toBe(state);
  });
  it('when the report says outOfQuota or blocked, then that screen', () => {
    expect(transition(at('waiting'), { type: 'REPORT', status: 'outOfQuota' }, rating).screen).toBe(
      'outOfQuota',
    );
    expect(transition(at('waiting'), { type: 'REPORT', status: 'blocked' }, rating).screen).toBe('blocked');
  });
  it('when the report is ok, then the guest keeps waiting', () => {
    const state = at('waiting');
    expect(transition(state, { type: 'REPORT', status: 'ok' }, rating)).toBe(state);
  });
  it('when an agent answers, then ongoing and answered', () => {
    expect(transition(at('waiting'), { type: 'ANSWERED' }, rating)).toMatchObject({
      screen: 'ongoing',
      answered: true,
    });
  });
  it('when an answered call ends and the rating page is on, then rating', () => {
    expect(transition(at('ongoing', { answered: true }), { type: 'ENDED', by: 'agent' }, rating).screen).toBe(
      'rating',
    );
  });
  it('when an answered call ends without a rating page, then abandoned (ended)', () => {
    expect(
      transition(at('ongoing', { answered: true }), { type: 'ENDED', by: 'guest' }, noRating),
    ).toMatchObject({ screen: 'abandoned', endReason: 'ended' });
  });
  it('when the guest leaves the queue, then abandoned (cancelled) and no rating', () => {
    expect(transition(at('waiting'), { type: 'ENDED', by: 'guest' }, rating)).toMatchObject({
      screen: 'abandoned',
      endReason: 'cancelled',
    });
  });
  it('when the call ends before anybody answered, then abandoned (noAnswer)', () => {
    expect(transition(at('waiting'), { type: 'ENDED', by: 'agent' }, rating)).toMatchObject({
      screen: 'abandoned',
      endReason: 'noAnswer',
    });
    expect(transition(at('waiting'), { type: 'NO_ANSWER' }, rating)).toMatchObject({
      screen: 'abandoned',
      endReason: 'noAnswer',
    });
  });
  it('when the camera request fails, then unsupported (media)', () => {
    expect(transition(at('preview'), { type: 'FAILED', disabledCamera: true }, rating)).toMatchObject({
      screen: 'unsupported',
      unsupportedReason: 'media',
    });
  });
  it('when the appointment link names no appointment, then abandoned (unknownAppointment) from any screen', () => {
    for (const screen of ['selection', 'preview', 'waiting'] as const) {
      expect(transition(at(screen), { type: 'FAILED', unknownAppointment: true }, rating)).toMatchObject({
        screen: 'abandoned',
        endReason: 'unknownAppointment',
      });
    }
  });
  it('when the call fails otherwise, then abandoned (failed)', () => {
    expect(transition(at('waiting'), { type: 'FAILED' }, rating)).toMatchObject({
      screen: 'abandoned',
      endReason: 'failed',
    });
  });
  it('when rated, then the rating screen shows its thanks', () => {
    expect(transition(at('rating'), { type: 'RATED' }, rating)).toMatchObject({
      screen: 'rating',
      rated: true,
    });
  });
  it('when calling again from abandoned or rating, then selection', () => {
    expect(transition(at('abandoned'), { type: 'CALL_AGAIN' }, rating).screen).toBe('selection');
    expect(transition(at('rating'), { type: 'CALL_AGAIN' }, rating).screen).toBe('selection');
  });
  it('when another tab of the guest is in a call, then inCall; taking over goes back to selection', () => {
    const inCall = transition(at('selection'), { type: 'OTHER_TAB_IN_CALL' }, rating);
    expect(inCall.screen).toBe('inCall');
    expect(transition(inCall, { type: 'TAKE_OVER' }, rating).screen).toBe('selection');
  });
  it('when this tab is itself in the call, then another tab does not move it', () => {
    const state = at('ongoing', { answered: true });
    expect(transition(state, { type: 'OTHER_TAB_IN_CALL' }, rating)).toBe(state);
  });
  it('when the call ends on a screen that is not a call, then nothing changes', () => {
    const state = at('selection');
    expect(transition(state, { type: 'ENDED', by: 'agent' }, rating)).toBe(state);
  });
  it('when the guest is done with the preview, then selection; elsewhere the event changes nothing', () => {
    expect(transition(at('preview'), { type: 'PREVIEW_DONE' }, rating).screen).toBe('selection');
    const waiting = at('waiting');
    expect(transition(waiting, { type: 'PREVIEW_DONE' }, rating)).toBe(waiting);
  });
  it('when the welcome form is sent and the company has a preview, then preview; without one the call buttons stay', () => {
    expect(transition(at('selection'), { type: 'FORM_DONE' }, { ...rating, previewScreen: true }).screen).toBe('preview');
    const selection = at('selection');
    expect(transition(selection, { type: 'FORM_DONE' }, { ...rating, previewScreen: false })).toBe(selection);
  });
});
