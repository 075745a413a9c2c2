import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { Timestamp } from './common.ts';

/** GET /api/appointment/{reference} params: the reference of the guest's link /appointment/{reference}. */
export const AppointmentReferenceParams = Type.Object({
  reference: Type.String({ minLength: 1, maxLength: 200 }),
});

/** What a guest learns about its appointment: only what its call needs (no note, no agent name). */
export const GuestAppointment = Type.Object({
  id: Type.Integer(),
  reference: Type.String(),
  agentUsername: Type.String({ description: "the appointment agent's XMPP username, lowercase (the presence target)" }),
  startsAt: Timestamp,
});
export type GuestAppointment = Static<typeof GuestAppointment>;
