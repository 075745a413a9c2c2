import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { CompanyId, Timestamp } from './common.ts';
import { CallRoutingInfo } from './routing.ts';

export const Role = Type.Union([Type.Literal('admin'), Type.Literal('supervisor'), Type.Literal('agent')]);
export type Role = Static<typeof Role>;

export const LoginBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 320 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBody>;

export const ConsoleUser = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  name: Type.String(),
  role: Role,
  companyId: CompanyId,
  jid: Type.String({ description: 'the user\'s bare XMPP JID, <xmpp username>@<XMPP_DOMAIN>' }),
  assignmentIds: Type.Array(Type.Integer()),
  profileImageUrl: Type.Optional(Type.String({ description: 'the user\'s picture (GET /api/profile-images/{id}); absent: none' })),
});
export type ConsoleUser = Static<typeof ConsoleUser>;

/** A console user's picture (PUT /api/console/profile-image, PUT /api/admin/users/{id}/profile-image). */
export const PROFILE_IMAGE_MAX_BYTES = 1024 * 1024;
export const ProfileImageBody = Type.Object(
  {
    uploadId: Type.Union([Type.String({ pattern: '^[A-Za-z0-9_-]{16,64}$', description: 'an image of the company, uploaded with POST /api/upload/image' }), Type.Null()], {
      description: 'null: no picture (the initial shows)',
    }),
  },
  { additionalProperties: false },
);
export type ProfileImageBody = Static<typeof ProfileImageBody>;
export const ProfileImageAnswer = Type.Object({ profileImageUrl: Type.Union([Type.String(), Type.Null()]) });
export type ProfileImageAnswer = Static<typeof ProfileImageAnswer>;

export const ConsoleSession = Type.Object({ user: ConsoleUser });
export type ConsoleSession = Static<typeof ConsoleSession>;

/**
 * GET /api/console/session: whether the cookie (if any) is a live session, answered 200 either way, so the
 * console's check on load leaves no failed request in the browser's console (docs/api.md).
 */
export const ConsoleSessionStatus = Type.Union([
  Type.Object({ signedIn: Type.Literal(true), user: ConsoleUser }),
  Type.Object({ signedIn: Type.Literal(false) }),
]);
export type ConsoleSessionStatus = Static<typeof ConsoleSessionStatus>;

export const XmppToken = Type.Object({
  jid: Type.String(),
  credential: Type.String({ description: 'XMPP password: HS256 JWT {jid, exp}' }),
  expires_in: Type.Integer(),
});
export type XmppToken = Static<typeof XmppToken>;

/** An open call in one of the agent's rooms (GET /api/console/rooms, and the `callOpened` event). */
export const OpenCall = Type.Object({
  room: Type.String({ description: 'room JID a<assignmentId>-<guest>@<muc domain>' }),
  assignmentId: Type.Integer(),
  assignmentName: Type.String(),
  guestUsername: Type.String(),
  callId: Type.String(),
  reportId: Type.Integer(),
  openedAt: Timestamp,
  /** round robin: where the call stands (absent when the company does not use round robin) */
  routing: Type.Optional(CallRoutingInfo),
});
export type OpenCall = Static<typeof OpenCall>;

export const ConsoleRooms = Type.Object({ rooms: Type.Array(OpenCall) });
export type ConsoleRooms = Static<typeof ConsoleRooms>;

/** Server-sent events of GET /api/console/events: `event: callOpened`, `data: <OpenCall JSON>`. */
export const CONSOLE_EVENT_CALL_OPENED = 'callOpened';
/** to supervisors and admins: the company's call figures changed; the wall board reads them again (no data) */
export const CONSOLE_EVENT_WALLBOARD = 'wallboard';

/**
 * GET /api/console/wallboard (supervisors and admins): the company's calls now and today (docs/api.md
 * "Wall board"). `since`: when the longest-waiting call of the assignment began waiting (the board counts
 * on from it); `assignmentId` null for appointment calls.
 */
export const Wallboard = Type.Object({
  queues: Type.Array(
    Type.Object({
      assignmentId: Type.Union([Type.Integer(), Type.Null()]),
      name: Type.String(),
      waiting: Type.Integer(),
      longestWaitSince: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    }),
  ),
  agents: Type.Object({ available: Type.Integer(), inCall: Type.Integer(), away: Type.Integer() }),
  today: Type.Object({
    day: Type.String({ description: 'YYYY-MM-DD (UTC), as the reports count days' }),
    answered: Type.Integer(),
    abandoned: Type.Integer(),
    booked: Type.Integer(),
    /** answered within serviceLevelSeconds ÷ (answered + abandoned); null before any such call */
    serviceLevel: Type.Union([Type.Number(), Type.Null()]),
    serviceLevelSeconds: Type.Integer(),
  }),
  at: Type.String({ format: 'date-time' }),
});
export type Wallboard = Static<typeof Wallboard>;
