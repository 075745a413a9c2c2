import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { CallId } from './callReport.ts';
import { CompanyId, GuestUsername } from './common.ts';

/** POST /api/call-report/hold-call body: resuming a held call moves the guest to a new call id. */
export const HoldCallBody = Type.Object(
  {
    origin_call_id: CallId,
    current_call_id: CallId,
    new_call_id: CallId,
    assignment_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
    guest_username: Type.Optional(GuestUsername),
  },
  { additionalProperties: false },
);
export type HoldCallBody = Static<typeof HoldCallBody>;

/** POST /api/call-bug/by-guest body: a failed call stage, with the guest's log and state for support. */
export const CallBugBody = Type.Object(
  {
    // Any JSON (text, a list of log lines, a state object): stored as text, at most 200 000 characters each.
    guest_log: Type.Unknown(),
    guest_state: Type.Unknown(),
    guest_client_info: Type.Unknown(),
    call_id: CallId,
    guest_id: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);
export type CallBugBody = Static<typeof CallBugBody>;

/** PUT /api/geo-fence/check body. */
export const GeoFenceCheckBody = Type.Object(
  {
    lat: Type.Union([Type.Number({ minimum: -90, maximum: 90 }), Type.String({ pattern: '^-?[0-9]{1,2}(\\.[0-9]+)?$', maxLength: 40 })]),
    lng: Type.Union([Type.Number({ minimum: -180, maximum: 180 }), Type.String({ pattern: '^-?[0-9]{1,3}(\\.[0-9]+)?$', maxLength: 40 })]),
    companyID: CompanyId,
  },
  { additionalProperties: false },
);
export type GeoFenceCheckBody = Static<typeof GeoFenceCheckBody>;

export const GeoFenceInside = Type.Object({ inside: Type.Literal(true) });

/** POST /api/upload/{type}: the types and their limits (the content is checked, not the name). */
export const UPLOAD_TYPES = {
  image: { maxBytes: 5 * 1024 * 1024, mimes: ['image/png', 'image/jpeg', 'image/webp'] },
  document: { maxBytes: 10 * 1024 * 1024, mimes: ['application/pdf'] },
} as const;
export type UploadType = keyof typeof UPLOAD_TYPES;
export const UploadTypeParam = Type.Object({ type: Type.Union([Type.Literal('image'), Type.Literal('document')]) });

/**
 * POST /api/upload/{type}, as documented (the server reads the parts itself, so this is not validated by
 * the schema): the file under the field named by {type}, then the form fields.
 */
export const UploadForm = Type.Object(
  {
    image: Type.Optional(Type.String({ format: 'binary', description: 'the file, when {type} is image (png, jpeg, webp; 5 MB)' })),
    document: Type.Optional(Type.String({ format: 'binary', description: 'the file, when {type} is document (pdf; 10 MB)' })),
    companyId: Type.String({ pattern: '^[1-9][0-9]{0,9}$', description: "the caller's company id" }),
    forChat: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
    guestUsername: Type.Optional(Type.String({ description: 'console callers: the guest the file is for (that guest may read it too)' })),
  },
  { additionalProperties: false },
);

export const Uploaded = Type.Object({ fileUrl: Type.String({ description: '/api/files/{id}' }) });
export type Uploaded = Static<typeof Uploaded>;

export const FileIdParam = Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9_-]{16,64}$' }) });


