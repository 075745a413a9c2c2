import { describe, expect, it } from 'vitest';
import { freeSlots, workingSlots, zonedInstant } from '../../src/services/bookingSlots.ts';

/** docs/guest-journey.md "Booking a time instead": the free times are the schedule's working hours minus each agent's appointments. */
const iso = (ms: number[]) => ms.map((m) => new Date(m).toISOString());
const at = (s: string) => Date.parse(s);

describe('booking slots', () => {
  it('when the schedule is in a time zone east of UTC, then the slots are its working hours in that zone, 30 minutes each, after now', () => {
    // Monday 2030-01-07, Dubai (UTC+4) 09:00–11:00 = 05:00–07:00 UTC; now is 05:10 UTC, so 09:00 has begun
    const schedule = { timezone: 'Asia/Dubai', weekly: [{ day: 1, from: '09:00', to: '11:00' }] };
    expect(iso(workingSlots(schedule, at('2030-01-07T05:10:00Z'), 1))).toEqual([
      '2030-01-07T05:30:00.000Z',
      '2030-01-07T06:00:00.000Z',
      '2030-01-07T06:30:00.000Z',
    ]);
  });

  it('when the clocks go forward in the schedule’s zone, then the same wall-clock hours move by an hour in UTC', () => {
    // New York: Saturday 2026-03-07 is EST (UTC−5), Sunday 2026-03-08 EDT (UTC−4)
    const schedule = { timezone: 'America/New_York', weekly: [{ day: 6, from: '09:00', to: '09:30' }, { day: 0, from: '09:00', to: '09:30' }] };
    expect(iso(workingSlots(schedule, at('2026-03-07T00:00:00Z'), 2))).toEqual(['2026-03-07T14:00:00.000Z', '2026-03-08T13:00:00.000Z']);
    // and back in the autumn: London 09:00 is 08:00 UTC on Saturday 2026-10-24, 09:00 UTC on the Monday after
    expect(new Date(zonedInstant('2026-10-24', 9 * 60, 'Europe/London')).toISOString()).toBe('2026-10-24T08:00:00.000Z');
    expect(new Date(zonedInstant('2026-10-26', 9 * 60, 'Europe/London')).toISOString()).toBe('2026-10-26T09:00:00.000Z');
  });

  it('when a day is closed, or a period runs past midnight, then the closed day has no slot and the night runs on into the next day', () => {
    const schedule = {
      timezone: 'UTC',
      weekly: [{ day: 1, from: '23:00', to: '01:00' }, { day: 2, from: '10:00', to: '11:00' }],
      closedDays: ['2030-01-08'],
    };
    // Monday 23:00 and 23:30 are open; Tuesday 00:00, 00:30 and 10:00–11:00 fall on the closed day
    expect(iso(workingSlots(schedule, at('2030-01-07T12:00:00Z'), 2))).toEqual(['2030-01-07T23:00:00.000Z', '2030-01-07T23:30:00.000Z']);
  });

  it('when no schedule or no period is set, then there is nothing to book (always open: nobody needs to)', () => {
    expect(workingSlots(null, at('2030-01-07T00:00:00Z'))).toEqual([]);
    expect(workingSlots({ timezone: 'UTC', weekly: [] }, at('2030-01-07T00:00:00Z'))).toEqual([]);
  });

  it('when agents have appointments, then a slot stays free while one agent is free for all of it, the least booked first', () => {
    const schedule = { timezone: 'UTC', weekly: [{ day: 1, from: '09:00', to: '11:00' }] };
    const now = at('2030-01-07T08:00:00Z');
    const booked = [
      // agent 1: 09:00–09:30; agent 2: 09:15–09:45 overlaps both 09:00 and 09:30
      { agentId: 1, startsAt: at('2030-01-07T09:00:00Z'), durationMinutes: 30 },
      { agentId: 2, startsAt: at('2030-01-07T09:15:00Z'), durationMinutes: 30 },
      // another company's agent (not among the agents): counts for nothing
      { agentId: 9, startsAt: at('2030-01-07T10:00:00Z'), durationMinutes: 60 },
    ];
    const slots = freeSlots(schedule, [1, 2], booked, now, 1);
    expect(slots.map((s) => [new Date(s.startsAt).toISOString(), s.freeAgents])).toEqual([
      ['2030-01-07T09:30:00.000Z', [1]],
      ['2030-01-07T10:00:00.000Z', [1, 2]],
      ['2030-01-07T10:30:00.000Z', [1, 2]],
    ]);
    // a second appointment of agent 1 puts agent 2 first where both are free
    const more = [...booked, { agentId: 1, startsAt: at('2030-01-07T10:30:00Z'), durationMinutes: 30 }];
    expect(freeSlots(schedule, [1, 2], more, now, 1).map((s) => s.freeAgents)).toEqual([[1], [2, 1], [2]]);
  });
});
