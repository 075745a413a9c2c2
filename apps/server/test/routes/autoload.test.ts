import fs from 'node:fs';
import path from 'node:path';
import type { HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext } from '../helpers/context.ts';
import type { TestContext } from '../helpers/context.ts';

/**
 * @fastify/autoload registers every file under src/routes (app.ts) and skips, without a word, a file whose
 * default export is not a plugin. This list is the API of docs/api.md: a route file that is not loaded (or
 * a route that moves) fails here, and so does a route nobody listed.
 */
const EXPECTED = [
    'GET /api/admin/appointments',
    'POST /api/admin/appointments',
    'DELETE /api/admin/appointments/:id',
    'GET /api/admin/assignment-groups',
    'POST /api/admin/assignment-groups',
    'DELETE /api/admin/assignment-groups/:id',
    'PUT /api/admin/assignment-groups/:id',
    'GET /api/admin/assignments',
    'POST /api/admin/assignments',
    'DELETE /api/admin/assignments/:id',
    'PUT /api/admin/assignments/:id',
    'GET /api/admin/blocked-guests',
    'POST /api/admin/blocked-guests',
    'DELETE /api/admin/blocked-guests/:id',
    'PUT /api/admin/blocked-guests/:id',
    'GET /api/admin/company',
    'PUT /api/admin/company',
    'GET /api/admin/forms',
    'POST /api/admin/forms',
    'DELETE /api/admin/forms/:id',
    'PUT /api/admin/forms/:id',
    'GET /api/admin/geofence-zones',
    'POST /api/admin/geofence-zones',
    'DELETE /api/admin/geofence-zones/:id',
    'PUT /api/admin/geofence-zones/:id',
    'GET /api/admin/quotas',
    'POST /api/admin/quotas',
    'DELETE /api/admin/quotas/:id',
    'PUT /api/admin/quotas/:id',
    'GET /api/admin/schedule',
    'PUT /api/admin/schedule',
    'GET /api/admin/users',
    'POST /api/admin/users',
    'DELETE /api/admin/users/:id',
    'PUT /api/admin/users/:id',
    'PUT /api/admin/users/:id/profile-image',
    'GET /api/appointment/:reference',
    'GET /api/booking/slots',
    'POST /api/booking',
    'GET /api/call-report/wait',
    'POST /api/call-bug/by-guest',
    'POST /api/call-report/add',
    'POST /api/call-report/hold-call',
    'POST /api/call-report/media',
    'PUT /api/call-report/update',
    'PUT /api/call-report/update-timestamp',
    'GET /api/company/details',
    'POST /api/console/availability',
    'GET /api/console/calls',
    'GET /api/console/calls/:callId',
    'POST /api/console/calls/:callId/decline',
    'POST /api/console/calls/:callId/media',
    'PUT /api/console/calls/:callId/note',
    'POST /api/console/calls/:callId/transfer',
    'GET /api/console/events',
    'POST /api/console/login',
    'POST /api/console/logout',
    'GET /api/console/me',
    'POST /api/console/media/standby',
    'GET /api/console/recordings',
    'DELETE /api/console/recordings/:callId',
    'GET /api/console/recordings/:callId/file',
    'GET /api/console/recordings/:callId/tracks',
    'GET /api/console/recordings/deletions',
    'GET /api/console/reports',
    'GET /api/console/reports.csv',
    'GET /api/console/rooms',
    'GET /api/console/session',
    'GET /api/console/transfer-targets',
    'GET /api/console/wallboard',
    'POST /api/console/transfers/:id/accept',
    'POST /api/console/xmpp-token',
    'PUT /api/console/profile-image',
    'GET /api/files/:id',
    'GET /api/profile-images/:id',
    'POST /api/form-submission',
    'POST /api/form-submission/get-submission',
    'POST /api/ejabberd-events',
    'PUT /api/geo-fence/check',
    'POST /api/guest-auth',
    'GET /api/guest/details',
    'POST /api/guest/register',
    'GET /api/health',
    'POST /api/rating-form/submissions',
    'POST /api/upload/:type',
    'GET /api/widget/config',
];

const ROUTES_DIR = path.join(import.meta.dirname, '../../src/routes');

describe('the routes autoloaded from src/routes', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext('sqlite');
  });
  afterAll(async () => t.close());

  it('when the app is built, then every expected route is registered', () => {
    const missing = EXPECTED.filter((route) => {
      const [method, url] = route.split(' ') as [HTTPMethods, string];
      return !t.app.hasRoute({ method, url });
    });
    expect(missing).toEqual([]);
  });

  it('when the OpenAPI document is read, then it lists exactly the expected routes', () => {
    const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths)
      .filter(([url]) => url.startsWith('/api/'))
      .flatMap(([url, byMethod]) => Object.keys(byMethod).map((m) => `${m.toUpperCase()} ${url.replace(/\{(\w+)\}/g, ':$1')}`));
    expect(documented.sort()).toEqual([...EXPECTED].sort());
  });

  it('when a route file is read, then it exports its routes as the default plugin with its callers', () => {
    const files = fs.readdirSync(ROUTES_DIR, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(25);
    const without = files.filter((f) => !/^export default routes\(\{ access: '\w+'(, role: '\w+')? \}, /m.test(fs.readFileSync(path.join(ROUTES_DIR, f), 'utf8')));
    expect(without).toEqual([]);
  });
});
