/**
 * Arranging a company the way its admin would (the admin API of apps/server, session of
 * admin@demo.lobby), and undoing it after the test so tests stay independent.
 * `activated` has no admin route (it is the operator's switch): it is written to the database.
 */
import { BASE_URL, DEMO_ADMIN, consoleLogin } from '../api.ts';

export const DEMO_COMPANY_ID = 18;

let cookie: string | null = null;
async function adminCookie(): Promise<string> {
  cookie ??= await consoleLogin(DEMO_ADMIN);
  return cookie;
}

async function admin<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${BASE_URL}/api${path}`, {
    method,
    headers: { cookie: await adminCookie(), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? ((JSON.parse(text) as { data: T }).data ?? (undefined as T)) : (undefined as T);
}

/** Undo steps, run in reverse order by `restoreAll()` (call it in afterEach). */
const undo: Array<() => Promise<unknown>> = [];

export async function restoreAll(): Promise<void> {
  const errors: unknown[] = [];
  while (undo.length) {
    const step = undo.pop();
    await step?.().catch((e: unknown) => errors.push(e));
  }
  if (errors.length) throw new Error(`restoring the company failed: ${errors.map(String).join('; ')}`);
}

/** Runs `step` in restoreAll(), with the other undo steps (e.g. removing what a journey added). */
export function onRestore(step: () => Promise<unknown>): void {
  undo.push(step);
}

/** PUT /api/admin/company with `settings`; the previous values come back in restoreAll(). */
export async function arrangeCompanySettings(settings: Record<string, unknown>): Promise<void> {
  const before = await admin<Record<string, unknown>>('GET', '/admin/company');
  const previous = Object.fromEntries(Object.keys(settings).map((k) => [k, before[k]]));
  await admin('PUT', '/admin/company', settings);
  undo.push(() => admin('PUT', '/admin/company', previous));
}

/** companies.activated (no admin route: the operator activates a company). */
export async function arrangeCompanyActivated(activated: boolean): Promise<void> {
  const { default: Database } = await import('better-sqlite3');
  const path = await import('node:path');
  const file = path.join(process.env.LOBBY_DATA_DIR ?? 'data', 'lobby.sqlite');
  const set = (value: boolean) => {
    const db = new Database(file, { fileMustExist: true });
    try {
      db.prepare('update companies set activated = ? where id = ?').run(value ? 1 : 0, DEMO_COMPANY_ID);
    } finally {
      db.close();
    }
  };
  set(activated);
  undo.push(() => Promise.resolve(set(true)));
}

/** A call quota of the company (limit 0: every call is out of quota). */
export async function arrangeQuota(limit: number): Promise<void> {
  const quota = await admin<{ id: number }>('POST', '/admin/quotas', { period: 'day', limit });
  undo.push(() => admin('DELETE', `/admin/quotas/${quota.id}`));
}

export async function arrangeBlockedGuest(guestUsername: string): Promise<void> {
  const blocked = await admin<{ id: number }>('POST', '/admin/blocked-guests', { guestUsername, reason: 'e2e' });
  undo.push(() => admin('DELETE', `/admin/blocked-guests/${blocked.id}`));
}

/** A circular service area. */
export async function arrangeZone(center: { lat: number; lng: number }, radiusMeters: number): Promise<void> {
  const zone = await admin<{ id: number }>('POST', '/admin/geofence-zones', { name: 'e2e', kind: 'circle', center, radiusMeters });
  undo.push(() => admin('DELETE', `/admin/geofence-zones/${zone.id}`));
}

/** The username the server gives to a browser holding `guestId` (same guestId, same username). */
export async function usernameFor(guestId: string): Promise<string> {
  const response = await fetch(`${BASE_URL}/api/guest/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ guestId, companyId: DEMO_COMPANY_ID }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`register: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: { username: string } }).data.username;
}
