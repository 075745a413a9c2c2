import crypto from 'node:crypto';
import type { Db } from '../../src/db/database.ts';
import { hashPassword } from '../../src/services/passwords.ts';
import type { App } from '../../src/typebox.ts';

export const randomGuestId = () => crypto.randomBytes(16).toString('hex');

export async function addCompany(db: Db, c: { name: string; host?: string; activated?: boolean; settings?: Record<string, unknown> }) {
  const row = await db.kysely
    .insertInto('companies')
    .values({ name: c.name, host: c.host ?? '', activated: c.activated === false ? 0 : 1, settings: JSON.stringify(c.settings ?? {}), created_at: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function addAssignment(db: Db, companyId: number, name: string, type: 'queue' | 'appointment' = 'queue') {
  const row = await db.kysely
    .insertInto('assignments')
    .values({ company_id: companyId, name, type, position: 0, created_at: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

let userSeq = 0;
export async function addUser(
  db: Db,
  u: { companyId: number; email?: string; password: string; role?: 'admin' | 'supervisor' | 'agent'; assignmentIds?: number[] },
) {
  userSeq += 1;
  const email = u.email ?? `user${userSeq}-${crypto.randomBytes(3).toString('hex')}@test.lobby`;
  const row = await db.kysely
    .insertInto('users')
    .values({
      company_id: u.companyId,
      email,
      name: `User ${userSeq}`,
      role: u.role ?? 'agent',
      password_hash: await hashPassword(u.password),
      xmpp_username: `u${crypto.randomBytes(6).toString('hex')}`,
      created_at: Date.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (u.assignmentIds?.length) {
    await db.kysely
      .insertInto('user_assignments')
      .values(u.assignmentIds.map((assignment_id) => ({ user_id: row.id, assignment_id })))
      .execute();
  }
  return { id: row.id, email, password: u.password };
}

export interface RegisteredGuest {
  username: string;
  jabberusername: string;
  access_token: string;
  credential: string;
  companyId: number;
  guestRooms: Array<{ assignmentId: number; name: string; room: string }>;
}

export async function registerGuest(app: App, body: { guestId?: string; companyId?: number } = {}): Promise<RegisteredGuest> {
  const res = await app.inject({ method: 'POST', url: '/api/guest/register', payload: { guestId: randomGuestId(), ...body } });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  return res.json<{ data: RegisteredGuest }>().data;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Log a console user in; returns the Cookie header value. */
export async function login(app: App, email: string, password: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/console/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === 'lobby_session');
  if (!cookie) throw new Error('no session cookie');
  return `lobby_session=${cookie.value}`;
}

export async function openCall(app: App, guest: RegisteredGuest, extra: Record<string, unknown> = {}) {
  const callId = `${guest.username}--${crypto.randomBytes(6).toString('hex')}`;
  const res = await app.inject({
    method: 'POST',
    url: '/api/call-report/add',
    headers: bearer(guest.access_token),
    payload: { call_id: callId, company: guest.companyId, source: 'site', ...extra },
  });
  if (res.statusCode !== 201) throw new Error(`add report failed: ${res.statusCode} ${res.body}`);
  return { callId, reportId: res.json<{ data: { id: number } }>().data.id };
}
