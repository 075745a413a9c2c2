// Opening hours, read the same way by the guest app (which screen to show) and the server (whether a call
// may be opened: rules enforced on the server). No dependencies: the guest bundle imports it.

/** The parts of a company schedule this reads (contracts' Schedule, and the guest app's copy of it). */
export interface OpeningHours {
  timezone: string;
  weekly: Array<{ day: number; from: string; to: string }>;
  closedDays?: string[] | null;
}

function parts(now: Date, timeZone: string): Intl.DateTimeFormatPart[] {
  const options: Intl.DateTimeFormatOptions = { weekday: 'short', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
  try {
    return new Intl.DateTimeFormat('en-US', { ...options, timeZone }).formatToParts(now);
  } catch {
    return new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' }).formatToParts(now);
  }
}

/** Weekday (0 = Sunday), minutes since midnight and the date (YYYY-MM-DD) of `now` in `timeZone`. */
export function localTime(now: Date, timeZone: string): { day: number; minutes: number; date: string } {
  const p = parts(now, timeZone);
  const get = (type: string) => p.find((x) => x.type === type)?.value ?? '';
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday'));
  return { day, minutes: Number(get('hour')) * 60 + Number(get('minute')), date: `${get('year')}-${get('month')}-${get('day')}` };
}

const toMinutes = (hhmm: string) => {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return h * 60 + m;
};

/**
 * Whether the company takes calls at `now`. No schedule, or one without any period, means always open.
 * A period whose end is not after its start runs past midnight (22:00–02:00). A closed day (a holiday, in
 * the schedule's time zone) is closed whatever the weekly periods say.
 */
export function isOpen(schedule: OpeningHours | null | undefined, now: Date = new Date()): boolean {
  const weekly = schedule?.weekly ?? [];
  if (!weekly.length) return true;
  const { day, minutes, date } = localTime(now, schedule?.timezone || 'UTC');
  if (schedule?.closedDays?.includes(date)) return false;
  return weekly.some((p) => {
    const from = toMinutes(p.from);
    const to = toMinutes(p.to);
    if (to > from) return p.day === day && minutes >= from && minutes < to;
    // overnight: the evening part on its day, the morning part on the next day
    return (p.day === day && minutes >= from) || ((p.day + 1) % 7 === day && minutes < to);
  });
}
