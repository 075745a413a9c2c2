// Booking a time instead of waiting (docs/guest-journey.md "Booking a time instead", docs/api.md "Booking").
import { apiRequest } from '@lobby/call/http';
import type { BookingCreate, BookingSlots, GuestBooking } from '@lobby/contracts';
import type { GuestSession } from './guest.ts';

/** GET /booking/slots: the company's free times. */
export function fetchSlots(session: GuestSession): Promise<BookingSlots> {
  return apiRequest<BookingSlots>('/booking/slots', { token: session.accessToken });
}

/** POST /booking: throws the server's ApiError (409: the time was just taken). */
export function postBooking(session: GuestSession, body: BookingCreate): Promise<GuestBooking> {
  return apiRequest<GuestBooking>('/booking', { method: 'POST', token: session.accessToken, body });
}
