import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { CallId } from './callReport.ts';

/**
 * A guest books a time with an agent instead of waiting (docs/guest-journey.md "Booking a time instead",
 * docs/api.md "Booking").
 */
export const BookingCallType = Type.Union([Type.Literal('video'), Type.Literal('voice')]);
export type BookingCallType = Static<typeof BookingCallType>;

/** GET /api/booking/slots: the company's free times, in its time zone's working hours. */
export const BookingSlots = Type.Object({
  /** the company schedule's time zone (the guest app shows times in the guest's own) */
  timezone: Type.String(),
  slotMinutes: Type.Integer(),
  slots: Type.Array(Type.Object({ startsAt: Type.String({ format: 'date-time' }) })),
});
export type BookingSlots = Static<typeof BookingSlots>;

/** POST /api/booking body. `contact`: the welcome form's email and phone fields, by key. */
export const BookingCreate = Type.Object(
  {
    startsAt: Type.String({ format: 'date-time' }),
    callType: BookingCallType,
    name: Type.String({ minLength: 1, maxLength: 100 }),
    contact: Type.Optional(Type.Record(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$' }), Type.String({ maxLength: 200 }), { maxProperties: 20 })),
    /** the guest's waiting call, when it leaves the queue to book: reported as booked, not abandoned */
    call_id: Type.Optional(CallId),
  },
  { additionalProperties: false },
);
export type BookingCreate = Static<typeof BookingCreate>;

/** What the guest keeps of its booking: the link and the time (like GET /api/appointment, never the agent's name). */
export const GuestBooking = Type.Object({
  reference: Type.String(),
  link: Type.String(),
  startsAt: Type.String({ format: 'date-time' }),
  durationMinutes: Type.Integer(),
  callType: BookingCallType,
});
export type GuestBooking = Static<typeof GuestBooking>;
