import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { CompanyId } from './common.ts';
import { GuestLocation } from './guest.ts';

export const CallId = Type.String({
  minLength: 4,
  maxLength: 160,
  pattern: '^g[0-9a-f]{16}--[A-Za-z0-9_-]{1,64}$',
  description: '<guest username>--<suffix>',
});

export const ReportStatus = Type.Union([
  Type.Literal('ok'),
  Type.Literal('outOfQuota'),
  Type.Literal('blocked'),
]);
export type ReportStatus = Static<typeof ReportStatus>;

/** POST /api/call-report/add body. */
export const CallReportAddBody = Type.Object(
  {
    call_id: CallId,
    company: CompanyId,
    source: Type.Literal('site'),
    appointment_reference: Type.Optional(Type.String({ maxLength: 200 })),
    assignment_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
    service_type: Type.Optional(Type.String({ maxLength: 32 })),
    /** the guest's position when the company asked for it (requestLocation); shown to the agent */
    location: Type.Optional(GuestLocation),
    /**
     * true: the guest started the call below the company's recording notice (recordAlertText), which
     * acknowledges it; the server stores when, and records no call without it (docs/security.md)
     */
    recording_acknowledged: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type CallReportAddBody = Static<typeof CallReportAddBody>;

export const CallReportAdded = Type.Object({
  id: Type.Integer(),
  status: ReportStatus,
});
export type CallReportAdded = Static<typeof CallReportAdded>;

/**
 * PUT /api/call-report/update-timestamp body. Sent with navigator.sendBeacon (text/plain JSON, token in the
 * body) or fetch keepalive (application/json, token in the header or the body).
 */
export const CallReportTimestampBody = Type.Object(
  {
    call_id: CallId,
    access_token: Type.Optional(Type.String({ maxLength: 4096 })),
    call_initiated_timestamp: Type.Optional(Type.Boolean()),
    call_answered_timestamp: Type.Optional(Type.Boolean()),
    guest_exit_timestamp: Type.Optional(Type.Boolean()),
    call_ended_timestamp: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type CallReportTimestampBody = Static<typeof CallReportTimestampBody>;

/** PUT /api/call-report/update body: the changed fields (on ICE failure: success false and an SDP). */
export const CallReportUpdateBody = Type.Object(
  {
    call_id: CallId,
    success: Type.Optional(Type.Boolean()),
    guest_local_sdp: Type.Optional(Type.String({ maxLength: 65536 })),
    guest_remote_sdp: Type.Optional(Type.String({ maxLength: 65536 })),
    agent: Type.Optional(Type.String({ maxLength: 320 })),
    service_type: Type.Optional(Type.String({ maxLength: 32 })),
  },
  { additionalProperties: false },
);
export type CallReportUpdateBody = Static<typeof CallReportUpdateBody>;

export const CallReportUpdated = Type.Object({
  id: Type.Integer(),
  updated: Type.Array(Type.String(), { description: 'names of the fields that were set' }),
});
export type CallReportUpdated = Static<typeof CallReportUpdated>;

/** GET /api/call-report/wait querystring: the guest's own waiting call. */
export const WaitQuery = Type.Object({ call_id: CallId }, { additionalProperties: false });
export type WaitQuery = Static<typeof WaitQuery>;

/**
 * What the guest is told about its wait (docs/guest-journey.md "Place in the queue and estimate"): its
 * place among the calls its agents take first, and an estimate in the words it warrants. Either is null
 * when the company turned it off, or once the call is no longer waiting.
 */
export const WaitEstimateWords = Type.Union([
  Type.Object({ kind: Type.Literal('underMinute') }),
  Type.Object({ kind: Type.Literal('minutes'), minutes: Type.Integer({ minimum: 1 }) }),
  Type.Object({ kind: Type.Literal('fewMinutes') }),
  Type.Object({ kind: Type.Literal('longWait'), atLeastMinutes: Type.Integer({ minimum: 1 }) }),
]);
export type WaitEstimateWords = Static<typeof WaitEstimateWords>;

export const WaitPlace = Type.Object({
  /** true while the call waits for an answer; false once answered or ended (then nothing else is told) */
  waiting: Type.Boolean(),
  /** 1 for the next call to be answered; null when the company does not show it */
  position: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  /** null when the company does not show it, or no honest estimate exists (too little history, no agent) */
  estimate: Type.Union([WaitEstimateWords, Type.Null()]),
});
export type WaitPlace = Static<typeof WaitPlace>;
