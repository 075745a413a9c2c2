import { describe, expect, it } from 'vitest';
import { automationAllowed, browserCheck, isOpen, localTime } from '../src/journey/checks.ts';
import { visibleAssignments, visibleGroups } from '../src/journey/assignments.ts';
import { createGuestTabs } from '../src/journey/tabs.ts';

describe('opening hours', () => {
  // 2026-11-18 is a Wednesday (day 3)
  const wed = (hhmm: string, zone = 'Z') => new Date(`2026-11-18T${hhmm}:00${zone}`);
  const schedule = { timezone: 'UTC', weekly: [{ day: 3, from: '09:00', to: '17:00' }] };

  it('when there is no schedule or no period, then always open', () => {
    expect(isOpen(null, wed('03:00'))).toBe(true);
    expect(isOpen({ timezone: 'UTC', weekly: [] }, wed('03:00'))).toBe(true);
  });
  it('when inside a period, then open; at its end, then closed', () => {
    expect(isOpen(schedule, wed('09:00'))).toBe(true);
    expect(isOpen(schedule, wed('16:59'))).toBe(true);
    expect(isOpen(schedule, wed('17:00'))).toBe(false);
    expect(isOpen(schedule, wed('08:59'))).toBe(false);
  });
  it('when the schedule has a timezone, then the hours are read there', () => {
    const dubai = { timezone: 'Asia/Dubai', weekly: [{ day: 3, from: '09:00', to: '17:00' }] };
    expect(localTime(wed('06:00'), 'Asia/Dubai')).toEqual({ day: 3, minutes: 600, date: '2026-11-18' });
    expect(isOpen(dubai, wed('06:00'))).toBe(true); // 10:00 in Dubai
    expect(isOpen(dubai, wed('14:00'))).toBe(false); // 18:00 in Dubai
  });
  it('when today is one of the closed days (in the schedule\'s zone), then closed whatever the weekly hours say', () => {
    expect(isOpen({ ...schedule, closedDays: ['2026-11-18'] }, wed('10:00'))).toBe(false);
    expect(isOpen({ ...schedule, closedDays: ['2026-11-19'] }, wed('10:00'))).toBe(true);
    // 23:30 UTC on the 17th is already the 18th in Dubai
    const dubai = { timezone: 'Asia/Dubai', weekly: [{ day: 3, from: '00:00', to: '12:00' }], closedDays: ['2026-11-18'] };
    expect(isOpen(dubai, new Date('2026-11-17T23:30:00Z'))).toBe(false);
  });
  it('when a period runs past midnight, then its morning part is open the next day', () => {
    const night = { timezone: 'UTC', weekly: [{ day: 2, from: '22:00', to: '02:00' }] };
    expect(isOpen(night, wed('01:30'))).toBe(true);
    expect(isOpen(night, wed('02:30'))).toBe(false);
  });
});

describe('browser checks', () => {
  const ok = { RTCPeerConnection: function () {}, navigator: { mediaDevices: { getUserMedia: () => undefined }, onLine: true } };
  it('when WebRTC and media devices are there and online, then supported', () => {
    expect(browserCheck(ok)).toBeNull();
  });
  it('when WebRTC is missing, then browser', () => {
    expect(browserCheck({ ...ok, RTCPeerConnection: undefined })).toBe('browser');
  });
  it('when media devices are missing, then browser', () => {
    expect(browserCheck({ ...ok, navigator: { onLine: true } })).toBe('browser');
  });
  it('when offline, then network', () => {
    expect(browserCheck({ ...ok, navigator: { ...ok.navigator, onLine: false } })).toBe('network');
  });
  it('when the page was opened over plain http (no secure context: no media devices either), then insecure, not browser', () => {
    expect(browserCheck({ ...ok, isSecureContext: false, navigator: { onLine: true } })).toBe('insecure');
    expect(browserCheck({ ...ok, isSecureContext: true })).toBeNull();
  });
});

describe('automation switch', () => {
  it('when the server says allowAutomation true, then automated browsers may call', () => {
    expect(automationAllowed(true)).toBe(true);
  });
  it('when the server says false or nothing (or anything else), then automation is refused', () => {
    expect(automationAllowed(false)).toBe(false);
    expect(automationAllowed(undefined)).toBe(false);
    expect(automationAllowed('true')).toBe(false);
  });
});

describe('assignments', () => {
  const company = {
    assignments: [
      { id: 1, name: 'Sales', type: 'queue' as const },
      { id: 2, name: 'Support', type: 'queue' as const },
      { id: 3, name: 'Dr. Lee', type: 'appointment' as const },
    ],
    assignmentGroups: [
      { id: 10, name: 'Buy', assignmentIds: [1] },
      { id: 11, name: 'Help', assignmentIds: [2, 3] },
      { id: 12, name: 'Empty', assignmentIds: [] },
    ],
  };
  it('when the filter is queue, then appointment assignments are not offered', () => {
    expect(visibleAssignments({ ...company, assignmentFilter: 'queue' }).map((a) => a.id)).toEqual([1, 2]);
  });
  it('when the filter is all, then every assignment is offered', () => {
    expect(visibleAssignments({ ...company, assignmentFilter: 'all' })).toHaveLength(3);
  });
  it('when a group has no visible assignment, then the group is not offered', () => {
    const groups = visibleGroups({ ...company, assignmentFilter: 'queue' });
    expect(groups.map((g) => [g.group.id, g.assignments.map((a) => a.id)])).toEqual([
      [10, [1]],
      [11, [2]],
    ]);
  });
});

describe('tabs of one guest', () => {
  function bus() {
    const listeners: Array<(e: MessageEvent) => void> = [];
    return () => {
      const own: Array<(e: MessageEvent) => void> = [];
      return {
        postMessage: (data: unknown) => listeners.filter((l) => !own.includes(l)).forEach((l) => l({ data } as MessageEvent)),
        addEventListener: (_: string, l: (e: MessageEvent) => void) => {
          own.push(l);
          listeners.push(l);
        },
      } as unknown as BroadcastChannel;
    };
  }
  it('when another tab is in a call, then a new tab learns it; when not, then it does not', async () => {
    const channel = bus();
    const first = createGuestTabs(channel());
    const second = createGuestTabs(channel());
    expect(await second.otherTabInCall(50)).toBe(false);
    first.inCall(true);
    expect(await second.otherTabInCall(50)).toBe(true);
  });
  it('when a tab takes over, then the busy tab is told to hang up', () => {
    const channel = bus();
    const first = createGuestTabs(channel());
    const second = createGuestTabs(channel());
    let told = 0;
    first.onTakeOver(() => told++);
    first.inCall(true);
    second.takeOver();
    expect(told).toBe(1);
  });
});
