import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { CompanyId, GuestId, GuestUsername, Timestamp } from './common.ts';

/** The browser's position as the guest app keeps it (docs/guest-journey.md): numeric strings, or empty. */
export const GuestLocation = Type.Object(
  {
    latitude: Type.String({ maxLength: 40, pattern: '^(-?[0-9]{1,3}(\\.[0-9]+)?)?$' }),
    longitude: Type.String({ maxLength: 40, pattern: '^(-?[0-9]{1,3}(\\.[0-9]+)?)?$' }),
  },
  { additionalProperties: false },
);
export type GuestLocation = Static<typeof GuestLocation>;

/** POST /api/guest/register and POST /api/guest-auth body. */
export const GuestRegisterBody = Type.Object(
  {
    guestId: GuestId,
    companyId: Type.Optional(CompanyId),
    location: Type.Optional(GuestLocation),
  },
  { additionalProperties: false },
);
export type GuestRegisterBody = Static<typeof GuestRegisterBody>;
export const GuestAuthBody = GuestRegisterBody;
export type GuestAuthBody = GuestRegisterBody;

export const GuestRoom = Type.Object({
  assignmentId: Type.Integer(),
  name: Type.String({ description: 'assignment name' }),
  room: Type.String({ description: 'a<assignmentId>-<username>@<muc domain>' }),
});
export type GuestRoom = Static<typeof GuestRoom>;

const Credentials = {
  username: GuestUsername,
  jabberusername: Type.String({ description: '<username>@<guest domain>' }),
  companyId: CompanyId,
  access_token: Type.String({ description: 'API bearer token (HS256 JWT)' }),
  credential: Type.String({ description: 'XMPP password: HS256 JWT {jid, exp}' }),
  expires_in: Type.Integer({ description: 'seconds until access_token expires' }),
  credential_expires_in: Type.Integer({ description: 'seconds until credential expires' }),
  guestRooms: Type.Array(GuestRoom),
  // The position sent with the request (empty strings when none); echoed, not stored.
  location: GuestLocation,
};

/** 201 answer of POST /api/guest/register (`data`). */
export const GuestRegistration = Type.Object(Credentials);
export type GuestRegistration = Static<typeof GuestRegistration>;

/** 200 answer of POST /api/guest-auth (`data`): fresh tokens for an existing guest. */
export const GuestAuth = Type.Object(Credentials);
export type GuestAuth = Static<typeof GuestAuth>;

export const GuestDetailsQuery = Type.Object({ username: GuestUsername });

/** GET /api/guest/details answer (`data`). */
export const GuestDetails = Type.Object({
  username: GuestUsername,
  jabberusername: Type.String(),
  companyId: CompanyId,
  createdAt: Timestamp,
  guestRooms: Type.Array(GuestRoom),
});
export type GuestDetails = Static<typeof GuestDetails>;
