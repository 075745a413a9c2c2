import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { CompanyId, GuestUsername, Timestamp } from './common.ts';

/** The form kinds a company defines: the welcome form before a call, the rating form after it. */
export const FormKind = Type.Union([Type.Literal('welcome'), Type.Literal('rating')]);
export type FormKind = Static<typeof FormKind>;

export const FIELD_TYPES = ['text', 'email', 'tel', 'number', 'textarea', 'select', 'checkbox', 'stars', 'emojies'] as const;
export const FieldType = Type.Union(FIELD_TYPES.map((t) => Type.Literal(t)));
export type FieldType = (typeof FIELD_TYPES)[number];

export const FieldKey = Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$', description: 'answers are keyed by it' });

export const FormOption = Type.Object(
  {
    value: Type.String({ minLength: 1, maxLength: 200 }),
    label: Type.String({ maxLength: 500 }),
    label_ar: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

export const FormField = Type.Object(
  {
    key: FieldKey,
    type: FieldType,
    label: Type.String({ maxLength: 500 }),
    label_ar: Type.Optional(Type.String({ maxLength: 500 })),
    required: Type.Boolean(),
    options: Type.Optional(Type.Array(FormOption, { maxItems: 100, description: 'select (and multi-choice checkbox) only' })),
    order: Type.Integer({ minimum: 0, maximum: 10000 }),
  },
  { additionalProperties: false },
);
export type FormField = Static<typeof FormField>;

/** A form as the guest app renders it (GET /api/company/details `forms`) and the admin edits it. */
export const FormDefinition = Type.Object({
  id: Type.Integer(),
  kind: FormKind,
  title: Type.String(),
  title_ar: Type.Optional(Type.String()),
  fields: Type.Array(FormField),
});
export type FormDefinition = Static<typeof FormDefinition>;

/** The company's forms in GET /api/company/details. */
export const CompanyForms = Type.Object({
  welcome: Type.Union([FormDefinition, Type.Null()]),
  rating: Type.Union([FormDefinition, Type.Null()]),
});
export type CompanyForms = Static<typeof CompanyForms>;

/**
 * One answer: text-like fields a string (≤ 2000 characters), number a number, checkbox a boolean or the chosen
 * option values, stars/emojies 1–5. Typed as unknown on purpose: Fastify's Ajv coerces scalars inside unions
 * (5 would become "5"), so the server checks each value against the field's type itself (no coercion).
 */
export const AnswerValue = Type.Unknown();
export type AnswerValue = string | number | boolean | string[];
export const Answers = Type.Record(Type.String({ maxLength: 64 }), AnswerValue, { maxProperties: 100 });
export type Answers = Record<string, AnswerValue>;

export const ServiceType = Type.Union([Type.Literal('talk'), Type.Literal('widget')]);
export type ServiceType = Static<typeof ServiceType>;

/** POST /api/form-submission body. */
export const FormSubmissionBody = Type.Object(
  {
    company: CompanyId,
    guestUsername: GuestUsername,
    serviceType: ServiceType,
    formId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
    answers: Answers,
  },
  { additionalProperties: false },
);
export type FormSubmissionBody = Static<typeof FormSubmissionBody>;

export const CreatedId = Type.Object({ id: Type.Integer() });
export type CreatedId = Static<typeof CreatedId>;

/** POST /api/form-submission/get-submission body. */
export const GetSubmissionBody = Type.Object(
  { companyId: CompanyId, guestUsername: GuestUsername, serviceType: ServiceType },
  { additionalProperties: false },
);
export type GetSubmissionBody = Static<typeof GetSubmissionBody>;

/** Its answer: `{}` while the welcome form is still required, else the latest submission. */
export const Submission = Type.Union([
  Type.Object({ id: Type.Integer(), formId: Type.Integer(), answers: Answers, submittedAt: Timestamp }, { additionalProperties: false }),
  Type.Object({ required: Type.Literal(false, { description: 'the company asks no welcome form' }) }, { additionalProperties: false }),
  Type.Object({}, { additionalProperties: false, description: 'the welcome form is still required' }),
]);
export type Submission = Static<typeof Submission>;

/** POST /api/rating-form/submissions body; `form` null = the plain stars/emojies score (`answers.score`). */
export const RatingSubmissionBody = Type.Object(
  {
    guestUsername: GuestUsername,
    report: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'the call report id (from call-report/add)' }),
    form: Type.Union([Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), Type.Null()]),
    answers: Answers,
  },
  { additionalProperties: false },
);
export type RatingSubmissionBody = Static<typeof RatingSubmissionBody>;

/** POST/PUT /api/admin/forms body. */
export const FormInput = Type.Object(
  {
    kind: FormKind,
    title: Type.String({ maxLength: 500 }),
    title_ar: Type.Optional(Type.String({ maxLength: 500 })),
    fields: Type.Array(FormField, { maxItems: 50 }),
  },
  { additionalProperties: false },
);
export type FormInput = Static<typeof FormInput>;

export const FormList = Type.Object({ forms: Type.Array(FormDefinition) });
export type FormList = Static<typeof FormList>;
