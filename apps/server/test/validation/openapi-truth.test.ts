import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext } from '../helpers/context.ts';
import type { TestContext } from '../helpers/context.ts';
import { login } from '../helpers/fixtures.ts';

/**
 * The OpenAPI document (/api/docs) tells what the API really answers: each route that
 * validates input documents 400, each route behind credentials 401, rate-limited routes 429, and the request
 * content types the server parses are the ones listed (the multipart upload described with its fields).
 */
interface Operation {
  parameters?: unknown[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
  security?: unknown[];
}

describe('the OpenAPI document', () => {
  let t: TestContext;
  let ops: Array<{ name: string; op: Operation }>;

  beforeAll(async () => {
    t = await createTestContext('sqlite');
    const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, Operation>> };
    ops = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/') && !path.startsWith('/api/docs'))
      .flatMap(([path, byMethod]) => Object.entries(byMethod).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })));
  });
  afterAll(async () => t.close());

  it('when a route takes parameters or a body, then it documents 400', () => {
    const missing = ops.filter(({ op }) => (op.parameters?.length || op.requestBody) && !op.responses['400']).map((o) => o.name);
    expect(missing).toEqual([]);
  });

  it('when a route needs credentials, then it documents 401', () => {
    const missing = ops.filter(({ op }) => op.security?.length && !op.responses['401']).map((o) => o.name);
    expect(missing).toEqual([]);
  });

  it('when the upload is read, then its multipart body names the file fields and the form fields', () => {
    const upload = ops.find((o) => o.name === 'POST /api/upload/{type}');
    const body = upload?.op.requestBody?.content['multipart/form-data']?.schema;
    expect(Object.keys(body?.properties ?? {}).sort()).toEqual(['companyId', 'document', 'forChat', 'guestUsername', 'image']);
    expect(body?.required).toEqual(['companyId']);
  });

  it('when the beacon route is read, then it lists text/plain, which it parses', () => {
    const beacon = ops.find((o) => o.name === 'PUT /api/call-report/update-timestamp');
    expect(Object.keys(beacon?.op.requestBody?.content ?? {}).sort()).toEqual(['application/json', 'text/plain']);
  });

  it('when the CSV report is read, then it is text/csv only, as the server sends it', async () => {
    const csv = ops.find((o) => o.name === 'GET /api/console/reports.csv');
    expect(Object.keys(csv?.op.responses['200']?.content ?? {})).toEqual(['text/csv']);
    const admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    const res = await t.app.inject({ method: 'GET', url: '/api/console/reports.csv', headers: { cookie: admin } });
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
  });

  it('when a route is rate limited, then it documents 429', () => {
    const limited = ['POST /api/guest/register', 'POST /api/console/login', 'POST /api/upload/{type}'];
    expect(limited.filter((name) => !ops.find((o) => o.name === name)?.op.responses['429'])).toEqual([]);
  });
});
