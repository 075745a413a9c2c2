import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext } from '../helpers/context.ts';
import type { TestContext } from '../helpers/context.ts';
import { login } from '../helpers/fixtures.ts';

// The widget's two server rules (docs/widget.md "Security"): who may read the loader's settings, and who
// may frame the call page.
const LISTED = ['https://www.example.com', 'https://shop.example.com'];

describe('the website widget: its settings and the call page’s frame-ancestors', () => {
  let t: TestContext;

  beforeAll(async () => {
    const guestDist = fs.mkdtempSync(path.join(os.tmpdir(), 'lobby-widget-guest-'));
    fs.writeFileSync(path.join(guestDist, 'index.html'), '<!doctype html><title>guest</title>');
    t = await createTestContext('sqlite', { config: { guestDist } });
    const admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    const saved = await t.app.inject({ method: 'PUT', url: '/api/admin/company', headers: { cookie: admin }, payload: { widgetOrigins: LISTED } });
    expect(saved.statusCode).toBe(200);
  });
  afterAll(async () => {
    await t.close();
  });

  const config = (origin?: string) =>
    t.app.inject({ method: 'GET', url: '/api/widget/config', headers: origin ? { origin } : {} });

  it('when a listed website asks for the settings, then it reads them (CORS for its origin alone)', async () => {
    const res = await config('https://shop.example.com');
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://shop.example.com');
    expect(res.json<{ data: { allowed: boolean; companyId: number } }>().data).toMatchObject({ allowed: true, companyId: DEMO.companyId });
  });

  it('when a website that is not listed asks, then it reads a 403 naming its origin and widgetOrigins, and nothing of the company', async () => {
    const res = await config('https://evil.example.net');
    expect(res.statusCode).toBe(403);
    // readable by that website's loader, so it can say why instead of the browser's CORS error
    expect(res.headers['access-control-allow-origin']).toBe('https://evil.example.net');
    const body = res.json<{ message: string; data?: unknown }>();
    expect(body.message).toBe('https://evil.example.net is not in the company’s widget origins (widgetOrigins)');
    expect(body.data).toBeUndefined();
    expect(res.body).not.toContain('shop.example.com');
  });

  it('when a page without an Origin header or with a malformed one asks, then it gets a 403 and no CORS header', async () => {
    for (const origin of [undefined, 'null', 'https://a.example.com; script-src *']) {
      const res = await config(origin);
      expect(res.statusCode, String(origin)).toBe(403);
      expect(res.headers['access-control-allow-origin'], String(origin)).toBeUndefined();
    }
  });

  const frameAncestors = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode, url).toBe(200);
    return /frame-ancestors ([^;]*)/.exec(String(res.headers['content-security-policy']))?.[1];
  };

  it('when the widget of a listed website asks for the call page, then frame-ancestors names that website alone', async () => {
    expect(await frameAncestors(`/?service=widget&origin=${encodeURIComponent('https://shop.example.com')}`)).toBe("'self' https://shop.example.com");
  });

  it('when another website, or no website, asks for the call page, then frame-ancestors is self and names none of the list', async () => {
    for (const url of [
      `/?service=widget&origin=${encodeURIComponent('https://evil.example.net')}`,
      `/?service=widget&origin=${encodeURIComponent('https://www.example.com; frame-ancestors *')}`,
      '/',
      '/?origin=https%3A%2F%2Fshop.example.com',
    ]) {
      expect(await frameAncestors(url), url).toBe("'self'");
    }
  });
});
