// The free times a guest may book (docs/guest-journey.md "Booking a time instead"): the company's agents
// work its opening hours (the schedule, in its time zone, without its closed days); a time is free while
// at least one of them has no appointment overlapping it. Pure: the route reads the facts and passes them.
import { localTime, type OpeningHours } from '@lobby/contracts';

export const SLOT_MINUTES = 30;
/** how far ahead a guest may book */
export const BOOKING_DAYS = 14;

export interface BookedTime {
  agentId: number;
  startsAt: number;
  durationMinutes: number;
}

export interface Slot {
  startsAt: number;
  /** the agents free for the whole slot, fewest appointments in the horizon first */
  freeAgents: number[];
}

const toMinutes = (hhmm: string) => {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return h * 60 + m;
};

/** The offset of `timeZone` from UTC at `at`, in ms (positive east of Greenwich). */
function offsetMs(at: number, timeZone: string): number {
  const p = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(at));
  const get = (type: string) => Number(p.find((x) => x.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - (at - (at % 1000));
}

/**
 * The instant of a wall-clock time in `timeZone`: `date` (YYYY-MM-DD) plus `minutes` after its midnight
 * (may pass 24 h for a period crossing midnight). A time a spring-forward skips maps an hour on.
 */
export function zonedInstant(date: string, minutes: number, timeZone: string): number {
  const [y = 1970, m = 1, d = 1] = date.split('-').map(Number);
  const wall = Date.UTC(y, m - 1, d) + minutes * 60_000;
  const first = wall - offsetMs(wall, timeZone);
  // the offset at the guess may differ from the offset at the answer (a DST change between them)
  return wall - offsetMs(first, timeZone);
}

const addDays = (date: string, days: number) => {
  const [y = 1970, m = 1, d = 1] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
};
const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

/** Every slot of the schedule's working hours that starts after `now`, within `days` days (no bookings considered). */
export function workingSlots(schedule: OpeningHours | null | undefined, now: number, days = BOOKING_DAYS, slotMinutes = SLOT_MINUTES): number[] {
  const weekly = schedule?.weekly ?? [];
  if (!schedule || !weekly.length) return [];
  const zone = schedule.timezone || 'UTC';
  const closed = new Set(schedule.closedDays ?? []);
  const until = now + days * 86_400_000;
  const today = localTime(new Date(now), zone).date;
  const out = new Set<number>();
  // from yesterday: a period crossing midnight began on the day before
  for (let i = -1; i <= days; i++) {
    const date = addDays(today, i);
    const day = weekday(date);
    for (const period of weekly) {
      if (period.day !== day) continue;
      const from = toMinutes(period.from);
      let to = toMinutes(period.to);
      if (to <= from) to += 24 * 60;
      for (let start = from; start + slotMinutes <= to; start += slotMinutes) {
        // a slot belongs to the closed day it falls on (the morning part of an overnight period too)
        const slotDate = start >= 24 * 60 ? addDays(date, 1) : date;
        if (closed.has(slotDate)) continue;
        const at = zonedInstant(date, start, zone);
        if (at > now && at < until) out.add(at);
      }
    }
  }
  return [...out].sort((a, b) => a - b);
}

/** The slots at least one agent is free for: working slots minus each agent's booked times. */
export function freeSlots(
  schedule: OpeningHours | null | undefined,
  agentIds: readonly number[],
  booked: readonly BookedTime[],
  now: number,
  days = BOOKING_DAYS,
  slotMinutes = SLOT_MINUTES,
): Slot[] {
  const load = new Map<number, number>(agentIds.map((id) => [id, 0]));
  for (const b of booked) if (load.has(b.agentId)) load.set(b.agentId, (load.get(b.agentId) ?? 0) + 1);
  const byLoad = [...agentIds].sort((a, b) => (load.get(a) ?? 0) - (load.get(b) ?? 0) || a - b);
  const slots: Slot[] = [];
  for (const startsAt of workingSlots(schedule, now, days, slotMinutes)) {
    const ends = startsAt + slotMinutes * 60_000;
    const freeAgents = byLoad.filter(
      (agent) => !booked.some((b) => b.agentId === agent && b.startsAt < ends && b.startsAt + b.durationMinutes * 60_000 > startsAt),
    );
    if (freeAgents.length) slots.push({ startsAt, freeAgents });
  }
  return slots;
}
