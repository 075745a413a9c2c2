// The booked appointment as a calendar file (RFC 5545), for the guest's own calendar.

const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
/** RFC 5545 TEXT: backslash, semicolon, comma and new lines escaped */
const text = (s: string) => s.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r?\n/g, '\\n');

export interface CalendarBooking {
  reference: string;
  startsAt: string;
  durationMinutes: number;
  /** the absolute link the guest opens at the time */
  url: string;
  title: string;
  host: string;
  now?: number;
}

/** The .ics text of one appointment, times in UTC, the link as its URL and in its description. */
export function calendarFile(b: CalendarBooking): string {
  const start = Date.parse(b.startsAt);
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Lobby//Booking//EN',
    'BEGIN:VEVENT',
    `UID:${b.reference}@${b.host}`,
    `DTSTAMP:${stamp(b.now ?? Date.now())}`,
    `DTSTART:${stamp(start)}`,
    `DTEND:${stamp(start + b.durationMinutes * 60_000)}`,
    `SUMMARY:${text(b.title)}`,
    `DESCRIPTION:${text(b.url)}`,
    `URL:${b.url}`,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}
