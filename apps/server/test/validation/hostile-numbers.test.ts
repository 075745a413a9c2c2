import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../helpers/context.ts';
import type { TestContext } from '../helpers/context.ts';
import { bearer, login, registerGuest } from '../helpers/fixtures.ts';

/**
 * Numbers that Ajv used to coerce ("1e309" → Infinity) and store, impossible dates, and
 * unknown properties. Each request is refused with 400 naming the field, nothing is stored, and the reads
 * that used to fail afterwards (GET assignments, company details, the geofence check) still answer.
 */
const TABLES = ['assignments', 'forms', 'geofence_zones', 'quotas', 'appointments', 'companies'] as const;

const field = { key: 'q', type: 'text', label: 'Q', required: false, order: 0 };
interface Case {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  /** a string is sent as it is (raw JSON can hold 1e309, which JSON.parse turns into Infinity) */
  body?: unknown;
  message: RegExp;
}
const CASES: Case[] = [
  { name: 'an assignment position "1e309"', method: 'POST', url: '/api/admin/assignments', body: { name: 'p', type: 'queue', position: '1e309' }, message: /^body\.position: / },
  { name: 'an assignment position 1e309 (raw JSON)', method: 'POST', url: '/api/admin/assignments', body: '{"name":"p","type":"queue","position":1e309}', message: /^body\.position: / },
  { name: 'an assignment position "5" (no coercion in bodies)', method: 'POST', url: '/api/admin/assignments', body: { name: 'p', type: 'queue', position: '5' }, message: /^body\.position: must be integer/ },
  { name: 'an assignment with an unknown property', method: 'POST', url: '/api/admin/assignments', body: { name: 'p', type: 'queue', colour: 'red' }, message: /^body\.colour: unknown property$/ },
  { name: 'a rating-form field order "1e309"', method: 'POST', url: '/api/admin/forms', body: { kind: 'rating', title: 'R', fields: [{ ...field, order: '1e309' }] }, message: /^body\.fields\.0\.order: / },
  { name: 'a form field with an unknown property', method: 'POST', url: '/api/admin/forms', body: { kind: 'rating', title: 'R', fields: [{ ...field, hint: 'x' }] }, message: /^body\.fields\.0\.hint: unknown property$/ },
  { name: 'a circle zone latitude "1e309"', method: 'POST', url: '/api/admin/geofence-zones', body: { name: 'z', kind: 'circle', center: { lat: '1e309', lng: 0 }, radiusMeters: 5 }, message: /^body\.center\.lat: / },
  { name: 'a circle zone radius 1e309 (raw JSON)', method: 'POST', url: '/api/admin/geofence-zones', body: '{"name":"z","kind":"circle","center":{"lat":1,"lng":1},"radiusMeters":1e309}', message: /^body\.radiusMeters: / },
  { name: 'a polygon point -1e309 (raw JSON)', method: 'POST', url: '/api/admin/geofence-zones', body: '{"name":"z","kind":"polygon","coordinates":[[0,0],[1,0],[-1e309,1]]}', message: /^body\.coordinates\.2\.0: / },
  { name: 'a quota limit "1e309"', method: 'POST', url: '/api/admin/quotas', body: { period: 'day', limit: '1e309' }, message: /^body\.limit: / },
  { name: 'a quota limit 1e20', method: 'POST', url: '/api/admin/quotas', body: { period: 'day', limit: 1e20 }, message: /^body\.limit: / },
  { name: 'an appointment duration "1e309"', method: 'POST', url: '/api/admin/appointments', body: { agentId: 1, startsAt: '2030-01-01T10:00:00Z', durationMinutes: '1e309' }, message: /^body\.durationMinutes: / },
  { name: 'an appointment on 2030-13-01', method: 'POST', url: '/api/admin/appointments', body: { agentId: 1, startsAt: '2030-13-01T10:00:00Z' }, message: /^body\.startsAt: / },
  { name: 'a service area with an unbounded point', method: 'PUT', url: '/api/admin/company', body: '{"locationOfService":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1e309],[0,0]]]}}', message: /^body\.locationOfService/ },
  { name: 'a closed day 2026-02-30', method: 'PUT', url: '/api/admin/company', body: { schedule: { timezone: 'UTC', weekly: [], closedDays: ['2026-02-30'] } }, message: /^body\.schedule\.closedDays\.0: / },
  { name: 'calls?limit=1e309', method: 'GET', url: '/api/console/calls?limit=1e309', message: /^querystring\.limit: / },
  { name: 'calls?limit=0x10', method: 'GET', url: '/api/console/calls?limit=0x10', message: /^querystring\.limit: / },
  { name: 'reports?to=2026-13-01', method: 'GET', url: '/api/console/reports?to=2026-13-01', message: /^querystring\.to: / },
  { name: 'reports.csv?to=2026-13-01', method: 'GET', url: '/api/console/reports.csv?to=2026-13-01', message: /^querystring\.to: / },
  { name: 'reports?from=2026-02-30', method: 'GET', url: '/api/console/reports?from=2026-02-30', message: /^querystring\.from: / },
];

describe.each(dialects())('hostile numbers, dates and unknown properties (%s)', (dialect) => {
  let t: TestContext;
  let admin: string;
  const dump = async () => {
    const out: Record<string, unknown[]> = {};
    for (const table of TABLES) out[table] = (await sql`select * from ${sql.table(table)} order by id`.execute(t.db.kysely)).rows;
    return JSON.stringify(out);
  };

  beforeAll(async () => {
    t = await createTestContext(dialect);
    admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
  });
  afterAll(async () => t.close());

  it.each(CASES)('when an admin sends $name, then 400 names the field and nothing is stored', async (c) => {
    const before = await dump();
    const raw = typeof c.body === 'string';
    const res = await t.app.inject({
      method: c.method,
      url: c.url,
      headers: { cookie: admin, ...(raw ? { 'content-type': 'application/json' } : {}) },
      ...(c.body === undefined ? {} : { payload: raw ? (c.body as string) : (c.body as object) }),
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(c.message);
    expect(await dump()).toBe(before);
  });

  it('when a query has a plain decimal integer, then it is still read as a number', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/console/calls?limit=20', headers: { cookie: admin } });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('when all of the above were tried, then the reads they used to break still answer', async () => {
    const guest = await registerGuest(t.app);
    const reads = [
      await t.app.inject({ method: 'GET', url: '/api/admin/assignments', headers: { cookie: admin } }),
      await t.app.inject({ method: 'GET', url: '/api/admin/quotas', headers: { cookie: admin } }),
      await t.app.inject({ method: 'GET', url: `/api/company/details?companyId=${DEMO.companyId}` }),
      await t.app.inject({ method: 'PUT', url: '/api/geo-fence/check', headers: bearer(guest.access_token), payload: { lat: 1, lng: 1, companyID: DEMO.companyId } }),
    ];
    expect(reads.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
  });
});
