import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { GuestUsername, Timestamp } from './common.ts';

/** Admin data that the guest calls check: geofence zones, call quotas, blocked guests. */

const Lng = Type.Number({ minimum: -180, maximum: 180 });
const Lat = Type.Number({ minimum: -90, maximum: 90 });

const polygon = {
  name: Type.String({ maxLength: 200 }),
  kind: Type.Literal('polygon'),
  coordinates: Type.Array(Type.Tuple([Lng, Lat]), { minItems: 3, maxItems: 1000, description: '[lng, lat] ring as in GeoJSON; closed automatically' }),
};
const circle = {
  name: Type.String({ maxLength: 200 }),
  kind: Type.Literal('circle'),
  center: Type.Object({ lat: Lat, lng: Lng }, { additionalProperties: false }),
  radiusMeters: Type.Number({ exclusiveMinimum: 0, maximum: 20_000_000 }),
};

/** A zone: a polygon or a circle (centre and radius in metres). */
export const GeofenceZoneInput = Type.Union([
  Type.Object(polygon, { additionalProperties: false }),
  Type.Object(circle, { additionalProperties: false }),
]);
export type GeofenceZoneInput = Static<typeof GeofenceZoneInput>;

export const GeofenceZone = Type.Union([Type.Object({ id: Type.Integer(), ...polygon }), Type.Object({ id: Type.Integer(), ...circle })]);
export type GeofenceZone = Static<typeof GeofenceZone>;
export const GeofenceZoneList = Type.Object({ zones: Type.Array(GeofenceZone) });

export const QuotaPeriod = Type.Union([Type.Literal('day'), Type.Literal('week'), Type.Literal('month')]);
export type QuotaPeriod = Static<typeof QuotaPeriod>;

/** At most `limit` accepted calls per company and period (UTC day, ISO week from Monday, calendar month). */
export const QuotaInput = Type.Object(
  { period: QuotaPeriod, limit: Type.Integer({ minimum: 0, maximum: 100_000_000 }) },
  { additionalProperties: false },
);
export type QuotaInput = Static<typeof QuotaInput>;
export const Quota = Type.Object({ id: Type.Integer(), period: QuotaPeriod, limit: Type.Integer(), used: Type.Integer() });
export type Quota = Static<typeof Quota>;
export const QuotaList = Type.Object({ quotas: Type.Array(Quota) });

export const BlockedGuestInput = Type.Object(
  { guestUsername: GuestUsername, reason: Type.String({ maxLength: 1000 }) },
  { additionalProperties: false },
);
export type BlockedGuestInput = Static<typeof BlockedGuestInput>;
/** PUT /api/admin/blocked-guests/{id}: only the reason changes (unblock and block again to change the guest). */
export const BlockedGuestReason = Type.Object({ reason: Type.String({ maxLength: 1000 }) }, { additionalProperties: false });
export const BlockedGuest = Type.Object({ id: Type.Integer(), guestUsername: GuestUsername, reason: Type.String(), createdAt: Timestamp });
export type BlockedGuest = Static<typeof BlockedGuest>;
export const BlockedGuestList = Type.Object({ blockedGuests: Type.Array(BlockedGuest) });

// ids are PostgreSQL `integer`s: a larger one would fail in the database (500), not as a bad request
export const RuleIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
export const RuleDeleted = Type.Object({ id: Type.Integer(), deleted: Type.Literal(true) });
