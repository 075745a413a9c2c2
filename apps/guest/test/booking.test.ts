import { describe, expect, it } from 'vitest';
import { waitPassesThreshold } from '../src/features/booking/bookingOffer.ts';
import { calendarFile } from '../src/features/booking/calendarFile.ts';

/** docs/guest-journey.md "Booking a time instead": when the waiting guest is offered a time, and the calendar file it gets. */
describe('booking a time instead', () => {
  const company = { appointmentBooking: true, bookingAfterMinutes: 10 };

  it('when the estimate passes the company’s threshold, then booking is offered; at or under it, or without an estimate, not', () => {
    expect(waitPassesThreshold(company, { kind: 'minutes', minutes: 11 })).toBe(true);
    expect(waitPassesThreshold(company, { kind: 'longWait', atLeastMinutes: 15 })).toBe(true);
    expect(waitPassesThreshold(company, { kind: 'minutes', minutes: 10 })).toBe(false);
    expect(waitPassesThreshold(company, { kind: 'fewMinutes' })).toBe(false);
    expect(waitPassesThreshold(company, { kind: 'underMinute' })).toBe(false);
    expect(waitPassesThreshold(company, null)).toBe(false);
  });

  it('when the company takes no bookings, then a long wait offers none', () => {
    expect(waitPassesThreshold({ ...company, appointmentBooking: false }, { kind: 'longWait', atLeastMinutes: 60 })).toBe(false);
  });

  it('when the guest books, then the calendar file holds the time in UTC, its end, the link and an escaped title', () => {
    const ics = calendarFile({
      reference: 'abc234',
      startsAt: '2030-01-07T05:30:00.000Z',
      durationMinutes: 30,
      url: 'https://lobby.example/appointment/abc234',
      title: 'Call with Acme, Inc; Support',
      host: 'lobby.example',
      now: Date.parse('2030-01-01T00:00:00Z'),
    });
    const lines = ics.split('\r\n');
    expect(lines).toContain('DTSTART:20300107T053000Z');
    expect(lines).toContain('DTEND:20300107T060000Z');
    expect(lines).toContain('UID:abc234@lobby.example');
    expect(lines).toContain('URL:https://lobby.example/appointment/abc234');
    expect(lines).toContain('SUMMARY:Call with Acme\\, Inc\\; Support');
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
  });
});
