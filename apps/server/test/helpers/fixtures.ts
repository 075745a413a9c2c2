import crypto from 'node:crypto';
import type { Db } from '../../src/db/database.ts';
import { hashPassword } from '../../src/services/passwords.ts';
import type { App } from '../../src/typebox.ts';
import { DEMO } from './context.ts';

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

/** The demo agent's session per app (answeredCall's default agent): one login per test context. */
const demoAgentSessions = new WeakMap<App, Promise<string>>();

/**
 * A call the guest opened and an agent answered, as the server sees it (give the context a Janus stand-in,
 * deps.mediaRooms: createFakeMediaRooms()): the guest takes its media grant (the room is made), an agent of the company takes its own (`agent`: a console cookie; by default the
 * demo agent), and the guest's engine reports the answered moment (call_answered_timestamp, for reports).
 */
export async function answeredCall(app: App, guest: RegisteredGuest, agent?: string) {
  const call = await openCall(app, guest);
  const guestGrant = await app.inject({ method: 'POST', url: '/api/call-report/media', headers: bearer(guest.access_token), payload: { call_id: call.callId } });
  if (guestGrant.statusCode !== 200) throw new Error(`guest media grant failed: ${guestGrant.statusCode} ${guestGrant.body}`);
  let cookie = agent;
  if (cookie === undefined) {
    let session = demoAgentSessions.get(app);
    if (!session) demoAgentSessions.set(app, (session = login(app, DEMO.agentEmail, DEMO.agentPassword)));
    cookie = await session;
  }
  const agentGrant = await app.inject({ method: 'POST', url: `/api/console/calls/${call.callId}/media`, headers: { cookie } });
  if (agentGrant.statusCode !== 200) throw new Error(`agent media grant failed: ${agentGrant.statusCode} ${agentGrant.body}`);
  const res = await app.inject({
    method: 'PUT',
    url: '/api/call-report/update-timestamp',
    headers: bearer(guest.access_token),
    payload: { call_id: call.callId, call_answered_timestamp: true },
  });
  if (res.statusCode !== 200) throw new Error(`answer failed: ${res.statusCode} ${res.body}`);
  return call;
}

/** A second activated company with one assignment and a registered guest of it. */
export async function otherCompanyGuest(app: App, db: Db, name = 'Other Co') {
  const companyId = await addCompany(db, { name });
  await addAssignment(db, companyId, 'Desk');
  return registerGuest(app, { companyId });
}

export const WELCOME_FORM = {
  kind: 'welcome',
  title: 'Before we start',
  fields: [
    { key: 'name', type: 'text', label: 'Name', required: true, order: 0 },
    { key: 'email', type: 'email', label: 'Email', required: false, order: 1 },
    { key: 'topic', type: 'select', label: 'Topic', required: true, order: 2, options: [{ value: 'sales', label: 'Sales' }, { value: 'help', label: 'Help' }] },
  ],
};

export const RATING_FORM = {
  kind: 'rating',
  title: 'How was it?',
  fields: [
    { key: 'overall', type: 'stars', label: 'Overall', required: true, order: 0 },
    { key: 'comment', type: 'textarea', label: 'Comment', required: false, order: 1 },
  ],
};

/** Create a form through the admin API (as the given admin cookie); returns its id. */
export async function createForm(app: App, cookie: string, form: Record<string, unknown>): Promise<number> {
  const res = await app.inject({ method: 'POST', url: '/api/admin/forms', headers: { cookie }, payload: form });
  if (res.statusCode !== 201) throw new Error(`create form failed: ${res.statusCode} ${res.body}`);
  return res.json<{ data: { id: number } }>().data.id;
}

/** A multipart/form-data body (fields first, then files), for app.inject. */
export function multipart(fields: Record<string, string>, files: Array<{ field: string; filename: string; type: string; content: Buffer }>) {
  const boundary = `----lobby${crypto.randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  for (const f of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.filename}"\r\nContent-Type: ${f.type}\r\n\r\n`));
    parts.push(f.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const PNG_BYTES = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), crypto.randomBytes(64)]);
export const PDF_BYTES = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

/**
 * The guest puts its call on hold and resumes it under a new call id (POST /call-report/hold-call, the
 * first call being the chain's origin); answers the new call id.
 */
export async function resumeAfterHold(app: App, guest: RegisteredGuest, firstCallId: string): Promise<string> {
  const resumed = `${guest.username}--resumed${crypto.randomBytes(4).toString('hex')}`;
  const res = await app.inject({
    method: 'POST',
    url: '/api/call-report/hold-call',
    headers: bearer(guest.access_token),
    payload: { origin_call_id: firstCallId, current_call_id: firstCallId, new_call_id: resumed },
  });
  if (res.statusCode !== 201) throw new Error(`hold failed: ${res.statusCode} ${res.body}`);
  return resumed;
}
