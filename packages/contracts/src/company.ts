import { Type } from '@sinclair/typebox';
import type { Static, TProperties } from '@sinclair/typebox';
import { CompanyId } from './common.ts';
import { CompanyForms } from './forms.ts';

/** Company details (docs/guest-journey.md): the settings of the guest experience, with their defaults. */

export const AssignmentType = Type.Union([Type.Literal('queue'), Type.Literal('appointment')]);
export type AssignmentType = Static<typeof AssignmentType>;

/** Assignment filter of the guest's selection screen. */
export const AssignmentFilter = Type.Union([Type.Literal('all'), Type.Literal('queue'), Type.Literal('appointment')]);
export type AssignmentFilter = Static<typeof AssignmentFilter>;

export const Assignment = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  type: AssignmentType,
});
export type Assignment = Static<typeof Assignment>;

export const AssignmentGroup = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  assignmentIds: Type.Array(Type.Integer()),
});
export type AssignmentGroup = Static<typeof AssignmentGroup>;

const HhMm = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' });

/**
 * Opening hours. null = always open. `day`: 0 = Sunday … 6 = Saturday, in `timezone` (IANA, e.g. 'UTC').
 * `closedDays`: dates (YYYY-MM-DD, in `timezone`) closed whatever the weekly periods say (holidays).
 */
export const Schedule = Type.Object({
  timezone: Type.String({ minLength: 1, maxLength: 64 }),
  weekly: Type.Array(
    Type.Object({
      day: Type.Integer({ minimum: 0, maximum: 6 }),
      from: HhMm,
      to: HhMm,
    }, { additionalProperties: false }),
    { maxItems: 70 },
  ),
  closedDays: Type.Optional(Type.Array(Type.String({ format: 'date' }), { maxItems: 366 })),
}, { additionalProperties: false });
export type Schedule = Static<typeof Schedule>;

/** Area where the service is offered (geofence): a GeoJSON Polygon or MultiPolygon geometry, every position bounded. */
const Position = Type.Tuple([Type.Number({ minimum: -180, maximum: 180 }), Type.Number({ minimum: -90, maximum: 90 })], { description: '[lng, lat]' });
const PolygonRings = Type.Array(Type.Array(Position, { minItems: 4, maxItems: 10_000 }), { minItems: 1, maxItems: 100 });
export const LocationOfService = Type.Union([
  Type.Object({ type: Type.Literal('Polygon'), coordinates: PolygonRings }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('MultiPolygon'), coordinates: Type.Array(PolygonRings, { minItems: 1, maxItems: 100 }) }, { additionalProperties: false }),
]);
export type LocationOfService = Static<typeof LocationOfService>;

export const CallMethod = Type.Union([Type.Literal('mediaServer'), Type.Literal('p2p')]);
export const CallType = Type.Union([Type.Literal('userSelect'), Type.Literal('voice'), Type.Literal('video')]);
export const Language = Type.Union([Type.Literal('multilingual'), Type.Literal('english'), Type.Literal('arabic')]);
export const RatingStyle = Type.Union([Type.Literal('stars'), Type.Literal('emojies')]);
export const StreamWatermark = Type.Union([Type.Literal('hidden'), Type.Literal('visible')]);

import { MESSAGE_KEYS, type MessageKey } from './messageKeys.ts';
export { MESSAGE_KEYS, type MessageKey } from './messageKeys.ts';

const Text = (max = 2000) => Type.String({ maxLength: max });
const Url = () => Type.String({ maxLength: 2048 });
const Color = () => Type.String({ maxLength: 32 });

const messageProps: TProperties = {};
for (const key of MESSAGE_KEYS) {
  messageProps[key] = Text();
  messageProps[`${key}_ar`] = Text();
}

/**
 * The editable settings of a company (stored as one JSON document). Every field is present in answers:
 * missing stored values take `companyDefaults`.
 */
export const CompanySettings = Type.Object({
  conferenceName: Text(200),
  details: Text(),
  callMethod: CallMethod,
  callType: CallType,
  language: Language,
  multilang: Type.Boolean(),
  // Messages (each with an _ar variant).
  ...(messageProps as Record<`${MessageKey}` | `${MessageKey}_ar`, ReturnType<typeof Text>>),
  // Look.
  logoImageUrl: Url(),
  websiteUrl: Url(),
  websiteTitle: Text(200),
  backgroundImgUrl: Url(),
  backgroundColor: Color(),
  textColor: Color(),
  categoryTextColor: Color(),
  categoryBackgroundColor: Color(),
  categoryStyle: Type.Union([Type.Literal('list'), Type.Literal('grid')]),
  waterMarkLogo: Url(),
  poweredByLogo: Url(),
  fontFamily: Text(200),
  faviconUrl: Url(),
  waitingImageUrl: Url(),
  holdPageImage: Url(),
  ratingPageImage: Url(),
  hideTimetable: Type.Boolean(),
  // Behaviour.
  schedule: Type.Union([Type.Null(), Schedule]),
  recordCalls: Type.Boolean(),
  /** days a recording is kept before the server deletes it (docs/operations.md "Recording retention"); 0: until deleted by hand */
  recordingRetentionDays: Type.Integer({ minimum: 0, maximum: 3650 }),
  flipCamera: Type.Boolean(),
  locationOfService: Type.Union([Type.Null(), LocationOfService]),
  requestLocation: Type.Boolean(),
  showRatingPage: Type.Boolean(),
  previewScreen: Type.Boolean(),
  welcomeForm: Type.Boolean(),
  ratingStyle: RatingStyle,
  advanceRating: Type.Boolean(),
  ratingForm: Type.Union([Type.Null(), Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }, { additionalProperties: false })]),
  streamWatermark: StreamWatermark,
  roundRobin: Type.Boolean(),
  /** round robin: seconds an agent has to answer an offered call before it moves to the next agent */
  roundRobinOfferSeconds: Type.Integer({ minimum: 3, maximum: 300 }),
  /** open calls the company takes at once from one network address (docs/security.md "Open calls"); 0: no cap */
  maxOpenCallsPerAddress: Type.Integer({ minimum: 0, maximum: 10_000 }),
  assignmentFilter: AssignmentFilter,
  /** the waiting guest sees its place in the queue (docs/guest-journey.md "Place in the queue and estimate") */
  queuePosition: Type.Boolean(),
  /** the waiting guest sees an estimate of its wait, from the company's recent calls */
  waitEstimate: Type.Boolean(),
  /** guests may book a time with an agent instead of waiting (docs/guest-journey.md "Booking a time instead") */
  appointmentBooking: Type.Boolean(),
  /** the estimated wait, in minutes, past which the waiting guest is offered booking (when appointmentBooking) */
  bookingAfterMinutes: Type.Integer({ minimum: 1, maximum: 240 }),
  /** the wall board's service level: the share of calls answered within this many seconds (docs/api.md "Wall board") */
  serviceLevelSeconds: Type.Integer({ minimum: 5, maximum: 3600 }),
  /** Websites allowed to embed the widget (origins like https://www.example.com; docs/widget.md). */
  widgetOrigins: Type.Array(Type.String({ pattern: '^https?://[^/?#\\s]+$', maxLength: 255 }), { maxItems: 50 }),
});
export type CompanySettings = Static<typeof CompanySettings>;

const messageDefaults = Object.fromEntries(MESSAGE_KEYS.flatMap((k) => [[k, ''], [`${k}_ar`, '']])) as Record<
  MessageKey | `${MessageKey}_ar`,
  string
>;

/** Defaults of every company setting (documented: callMethod, callType, language, recordCalls, backgroundColor, streamWatermark). */
export const companyDefaults: CompanySettings = {
  conferenceName: '',
  details: '',
  callMethod: 'mediaServer',
  callType: 'userSelect',
  language: 'multilingual',
  multilang: true,
  ...messageDefaults,
  logoImageUrl: '',
  websiteUrl: '',
  websiteTitle: '',
  backgroundImgUrl: '',
  backgroundColor: '#707070',
  textColor: '#ffffff',
  categoryTextColor: '#ffffff',
  categoryBackgroundColor: '#4a4a4a',
  categoryStyle: 'list',
  waterMarkLogo: '',
  poweredByLogo: '',
  fontFamily: '',
  faviconUrl: '',
  waitingImageUrl: '',
  holdPageImage: '',
  ratingPageImage: '',
  hideTimetable: false,
  schedule: null,
  recordCalls: true,
  recordingRetentionDays: 0,
  flipCamera: false,
  locationOfService: null,
  requestLocation: false,
  showRatingPage: false,
  previewScreen: false,
  welcomeForm: false,
  ratingStyle: 'stars',
  advanceRating: false,
  ratingForm: null,
  streamWatermark: 'hidden',
  roundRobin: false,
  roundRobinOfferSeconds: 20,
  maxOpenCallsPerAddress: 50,
  assignmentFilter: 'all',
  queuePosition: true,
  waitEstimate: true,
  appointmentBooking: false,
  bookingAfterMinutes: 10,
  serviceLevelSeconds: 60,
  widgetOrigins: [],
};

/** Merge stored (possibly partial, possibly stale) settings over the defaults; unknown keys are dropped. */
export function withCompanyDefaults(stored: Partial<Record<string, unknown>> | null | undefined): CompanySettings {
  const out: Record<string, unknown> = { ...companyDefaults };
  if (stored) {
    for (const key of Object.keys(companyDefaults)) {
      if (Object.hasOwn(stored, key) && stored[key] !== undefined) out[key] = stored[key];
    }
  }
  return out as CompanySettings;
}

/** GET /api/company/details answer body's `data`. */
export const CompanyDetails = Type.Composite([
  Type.Object({
    id: CompanyId,
    activated: Type.Boolean(),
    name: Type.String(),
    host: Type.String(),
  }),
  CompanySettings,
  Type.Object({
    assignments: Type.Array(Assignment),
    assignmentGroups: Type.Array(AssignmentGroup),
    forms: CompanyForms,
  }),
]);
export type CompanyDetails = Static<typeof CompanyDetails>;

export const CompanyDetailsQuery = Type.Object({
  companyId: Type.Optional(CompanyId),
});
