// The facts the gate needs, each read from the browser or the company (no React).
import type { CompanySchedule } from '../api/company.ts';
import type { UnsupportedReason } from './chart.ts';

/** Weekday (0 = Sunday) and minutes since midnight of `now` in `timeZone`. */
export function localTime(now: Date, timeZone: string): { day: number; minutes: number } {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(now);
  } catch {
    parts = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(now);
  }
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday'));
  return { day, minutes: Number(get('hour')) * 60 + Number(get('minute')) };
}

const toMinutes = (hhmm: string) => {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return h * 60 + m;
};

/**
 * Whether the company takes calls at `now`. No schedule, or one without any period, means always open.
 * A period whose end is not after its start runs past midnight (22:00–02:00).
 */
export function isOpen(schedule: CompanySchedule | null | undefined, now: Date = new Date()): boolean {
  const weekly = schedule?.weekly ?? [];
  if (!weekly.length) return true;
  const { day, minutes } = localTime(now, schedule?.timezone || 'UTC');
  return weekly.some((p) => {
    const from = toMinutes(p.from);
    const to = toMinutes(p.to);
    if (to > from) return p.day === day && minutes >= from && minutes < to;
    // overnight: the evening part on its day, the morning part on the next day
    return (p.day === day && minutes >= from) || ((p.day + 1) % 7 === day && minutes < to);
  });
}

export interface BrowserEnv {
  RTCPeerConnection?: unknown;
  navigator: { mediaDevices?: { getUserMedia?: unknown }; onLine?: boolean };
}

/** SPEC.md §3 browser tests: WebRTC, media devices, internet. null = supported. */
export function browserCheck(win: BrowserEnv | undefined = typeof window === 'undefined' ? undefined : window): UnsupportedReason | null {
  if (!win) return null;
  if (typeof win.RTCPeerConnection !== 'function') return 'browser';
  if (!win.navigator.mediaDevices || typeof win.navigator.mediaDevices.getUserMedia !== 'function') return 'browser';
  if (win.navigator.onLine === false) return 'network';
  return null;
}

/**
 * Whether an automated browser is allowed to call: the deployment's switch LOBBY_ALLOW_AUTOMATION, which
 * the server sends as company details `allowAutomation` (docs/guest-journey.md "Bots"). Anything but an
 * explicit `true` refuses, so an older server or a failed field shows automated browsers the bot screen.
 */
export function automationAllowed(serverFlag: unknown): boolean {
  return serverFlag === true;
}

export function isAutomated(nav: { webdriver?: boolean } | undefined = typeof navigator === 'undefined' ? undefined : navigator): boolean {
  return nav?.webdriver === true;
}

export interface Position {
  latitude: string;
  longitude: string;
}

/** The guest's position (SPEC.md §9: 10 s timeout, high accuracy, no cached position), as strings. */
export function readPosition(geo: Geolocation | undefined = typeof navigator === 'undefined' ? undefined : navigator.geolocation): Promise<Position> {
  return new Promise((resolve, reject) => {
    if (!geo) {
      reject(new Error('geolocation unavailable'));
      return;
    }
    geo.getCurrentPosition(
      (p) => resolve({ latitude: String(p.coords.latitude), longitude: String(p.coords.longitude) }),
      (e) => reject(new Error(e.message || `geolocation error ${e.code}`)),
      { enableHighAccuracy: true, timeout: 10_000, maximumAge: 0 },
    );
  });
}
