import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { AnswerValue, FieldType } from './forms.ts';
import { ServiceFilter } from './admin.ts';

/** One welcome-form answer as the agent reads it: the field's labels beside the value. */
export const CallFormAnswer = Type.Object({
  key: Type.String(),
  type: FieldType,
  label: Type.String(),
  label_ar: Type.Union([Type.String(), Type.Null()]),
  value: AnswerValue,
});
export type CallFormAnswer = Static<typeof CallFormAnswer>;

export const CallNote = Type.Object({
  text: Type.String(),
  by: Type.Union([Type.String({ description: "the author's name" }), Type.Null()]),
  at: Type.String({ format: 'date-time' }),
});
export type CallNote = Static<typeof CallNote>;

/** GET /api/console/calls/{callId}: what an agent sees of a call (queue entry details, call detail). */
export const CallDetails = Type.Object({
  callId: Type.String(),
  guestUsername: Type.String(),
  assignmentId: Type.Union([Type.Integer(), Type.Null()]),
  appointmentReference: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  answeredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  endedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  agent: Type.Union([Type.String(), Type.Null()]),
  /** the guest's position at the call (strings), null when not asked or not known */
  location: Type.Union([Type.Object({ latitude: Type.String(), longitude: Type.String() }), Type.Null()]),
  /** the guest's latest welcome-form submission up to the call, in the form's field order */
  form: Type.Union([
    Type.Object({
      title: Type.String(),
      title_ar: Type.Union([Type.String(), Type.Null()]),
      submittedAt: Type.String({ format: 'date-time' }),
      answers: Type.Array(CallFormAnswer),
    }),
    Type.Null(),
  ]),
  note: Type.Union([CallNote, Type.Null()]),
});
export type CallDetails = Static<typeof CallDetails>;

/** PUT /api/console/calls/{callId}/note body: the agent's note after the call (empty text removes it). */
export const CallNoteBody = Type.Object(
  { note: Type.String({ maxLength: 4000, description: 'plain text; an empty note removes it' }) },
  { additionalProperties: false },
);
export type CallNoteBody = Static<typeof CallNoteBody>;

export const CallsQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })), service: Type.Optional(ServiceFilter) },
  { additionalProperties: false },
);
export type CallsQuery = Static<typeof CallsQuery>;

/**
 * GET /api/console/calls: the company's latest conversations with their notes (admin reports, call detail):
 * one per hold chain, named by its first call id, as the reports count it.
 */
export const CallSummary = Type.Object({
  callId: Type.String(),
  guestUsername: Type.String(),
  /** the name the guest gave on the welcome form (null: none); the label is guestLabel(guestUsername, guestName) */
  guestName: Type.Union([Type.String(), Type.Null()]),
  /** the console user who answered the conversation (the last part an agent took), by name */
  agentName: Type.Union([Type.String(), Type.Null()]),
  assignmentName: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  /** an agent answered (any part of a call held and resumed) */
  answered: Type.Boolean(),
  /** the conversation's talk time in seconds across its hold chain (null: not answered or not ended) */
  talkSeconds: Type.Union([Type.Number(), Type.Null()]),
  /** how many call ids the conversation spans (1 + its resumes after hold) */
  parts: Type.Integer({ minimum: 1 }),
  note: Type.Union([CallNote, Type.Null()]),
  /** the guest's rating of the call: its score (1..5; a rating form's mean) and comment, when it rated */
  rating: Type.Union([Type.Object({ score: Type.Union([Type.Number(), Type.Null()]), comment: Type.Union([Type.String(), Type.Null()]) }), Type.Null()]),
});
export type CallSummary = Static<typeof CallSummary>;
