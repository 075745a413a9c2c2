import type { CompanySchedule } from '../../api/company.ts';

export interface TimetableRow {
  day: number;
  periods: Array<{ from: string; to: string }>;
}

/** Seven rows (one per weekday) starting at `firstDay`, periods sorted by start time. */
export function timetableRows(schedule: CompanySchedule | null | undefined, firstDay = 1): TimetableRow[] {
  const rows: TimetableRow[] = [];
  for (let i = 0; i < 7; i++) {
    const day = (firstDay + i) % 7;
    const periods = (schedule?.weekly ?? [])
      .filter((entry) => entry.day === day)
      .map(({ from, to }) => ({ from, to }))
      .sort((a, b) => a.from.localeCompare(b.from));
    rows.push({ day, periods });
  }
  return rows;
}

/** Weekday name in `language` (0 = Sunday), from the platform's locale data. */
export function weekdayName(day: number, language: string): string {
  // 2024-01-07 was a Sunday.
  return new Intl.DateTimeFormat(language, { weekday: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2024, 0, 7 + day)),
  );
}

/** 'HH:MM' → local time text ('9:00 AM', '٩:٠٠ ص'). */
export function formatClock(time: string, language: string): string {
  const [h = 0, m = 0] = time.split(':').map(Number);
  return new Intl.DateTimeFormat(language, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2024, 0, 1, h, m)),
  );
}
