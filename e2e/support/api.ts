/** Direct calls to the Lobby API from tests (as a guest or a console user would make them). */
import { randomUUID } from 'node:crypto';
import type { GuestRegistration } from '@lobby/contracts';

export const BASE_URL = process.env.LOBBY_BASE_URL ?? 'http://127.0.0.1:8080';
export const XMPP_WS_URL = BASE_URL.replace(/^http/, 'ws') + '/xmpp-websocket';

export const DEMO_AGENT = { email: 'agent@demo.lobby', password: process.env.DEMO_AGENT_PASSWORD ?? '' };
export const DEMO_ADMIN = { email: 'admin@demo.lobby', password: process.env.DEMO_ADMIN_PASSWORD ?? '' };

async function json<T>(response: Response, what: string): Promise<T> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what}: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

export async function registerGuest(companyId = 18): Promise<GuestRegistration> {
  const guestId = randomUUID().replaceAll('-', '');
  const response = await fetch(`${BASE_URL}/api/guest/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ guestId, companyId }),
  });
  if (response.status !== 201) throw new Error(`register: ${response.status} ${await response.text()}`);
  return json<GuestRegistration>(response, 'register');
}

export async function addReport(
  token: string,
  body: Record<string, unknown>,
): Promise<{ id: number; status: string }> {
  const response = await fetch(`${BASE_URL}/api/call-report/add`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return json(response, 'call-report/add');
}

/** Logs a console user in and returns the session cookie header. */
export async function consoleLogin(user: { email: string; password: string }): Promise<string> {
  const response = await fetch(`${BASE_URL}/api/console/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  });
  await json(response, 'console/login');
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  if (!cookie) throw new Error('console/login set no cookie');
  return cookie;
}

export async function consoleXmppToken(cookie: string): Promise<{ jid: string; credential: string }> {
  const response = await fetch(`${BASE_URL}/api/console/xmpp-token`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: '{}',
  });
  return json(response, 'console/xmpp-token');
}

/** The console user's standby Janus token (POST /api/console/media/standby): a warm session, no room. */
export async function consoleMediaStandby(cookie: string): Promise<{ token: string; expires_in: number }> {
  const response = await fetch(`${BASE_URL}/api/console/media/standby`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: '{}',
  });
  return json(response, 'console/media/standby');
}
