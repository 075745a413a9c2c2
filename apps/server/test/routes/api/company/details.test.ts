import { companyDefaults } from '@lobby/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { RATING_FORM, WELCOME_FORM, addCompany, createForm, login } from '../../../helpers/fixtures.ts';

describe.each(dialects())('GET /api/company/details (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect);
  });
  afterAll(async () => t.close());

  it('when no company is named, then the default company answers with every setting at its default', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/company/details', headers: { host: 'unknown.example' } });

    expect(res.statusCode).toBe(200);
    const { data } = res.json<{ data: Record<string, unknown> }>();
    expect(data).toMatchObject({ id: 18, activated: true, name: 'Lobby Demo', host: 'localhost' });
    expect(data).toMatchObject({
      callMethod: 'mediaServer',
      callType: 'userSelect',
      language: 'multilingual',
      recordCalls: true,
      backgroundColor: '#707070',
      streamWatermark: 'hidden',
    });
    for (const key of Object.keys(companyDefaults)) expect(data).toHaveProperty(key);
    // no server path or version in a public answer
    expect(data).not.toHaveProperty('recordingRoot');
    expect(JSON.stringify(data)).not.toContain(t.config.dataDir);
    expect(data.assignments).toEqual([
      { id: expect.any(Number) as number, name: 'Sales', type: 'queue' },
      { id: expect.any(Number) as number, name: 'Support', type: 'queue' },
    ]);
    expect(data.assignmentGroups).toEqual([]);
  });

  it('when stored settings override some defaults, then those win and unknown keys are dropped', async () => {
    const id = await addCompany(t.db, {
      name: 'Arabic Co',
      settings: { language: 'arabic', callType: 'voice', welcomeMsg_ar: 'أهلا', secretInternalKey: 'x' },
      activated: false,
    });
    const res = await t.app.inject({ method: 'GET', url: `/api/company/details?companyId=${id}` });
    expect(res.statusCode).toBe(200);
    const { data } = res.json<{ data: Record<string, unknown> }>();
    expect(data).toMatchObject({ id, activated: false, language: 'arabic', callType: 'voice', welcomeMsg_ar: 'أهلا', recordCalls: true });
    expect(data).not.toHaveProperty('secretInternalKey');
  });

  it('when the Host header matches a company host, then that company answers', async () => {
    const id = await addCompany(t.db, { name: 'Hosted', host: 'video.acme.test' });
    const res = await t.app.inject({ method: 'GET', url: '/api/company/details', headers: { host: 'video.acme.test' } });
    expect(res.json<{ data: { id: number } }>().data.id).toBe(id);
  });

  it('when the company is unknown or the id malformed, then 404 / 400 name companyId', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/api/company/details?companyId=424242' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ message: string }>().message).toContain('companyId');
    const bad = await t.app.inject({ method: 'GET', url: '/api/company/details?companyId=abc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('companyId');
  });

  it("when the company has a welcome and a rating form, then details carry both (fields in order) and ratingForm names the rating form; another company's forms never appear", async () => {
    const before = await t.app.inject({ method: 'GET', url: '/api/company/details?companyId=18' });
    expect(before.json<{ data: { forms: unknown; ratingForm: unknown } }>().data).toMatchObject({ forms: { welcome: null, rating: null }, ratingForm: null });

    const cookie = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    const reversed = { ...WELCOME_FORM, fields: [...WELCOME_FORM.fields].reverse() };
    const welcomeId = await createForm(t.app, cookie, reversed);
    const ratingId = await createForm(t.app, cookie, RATING_FORM);

    const res = await t.app.inject({ method: 'GET', url: '/api/company/details?companyId=18' });
    const { data } = res.json<{ data: { forms: { welcome: { id: number; fields: Array<{ key: string }> }; rating: { id: number } }; ratingForm: { id: number } } }>();
    expect(data.forms.welcome.id).toBe(welcomeId);
    expect(data.forms.welcome.fields.map((f) => f.key)).toEqual(['name', 'email', 'topic']);
    expect(data.forms.rating.id).toBe(ratingId);
    expect(data.ratingForm).toEqual({ id: ratingId });

    const other = await addCompany(t.db, { name: 'Formless' });
    const otherRes = await t.app.inject({ method: 'GET', url: `/api/company/details?companyId=${other}` });
    expect(otherRes.json<{ data: { forms: unknown } }>().data.forms).toEqual({ welcome: null, rating: null });
  });

  it('when the deployment leaves LOBBY_ALLOW_AUTOMATION unset, then details say allowAutomation false; a company setting cannot change it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/company/details?companyId=18' });
    expect(res.json<{ data: { allowAutomation: unknown } }>().data.allowAutomation).toBe(false);
    const id = await addCompany(t.db, { name: 'Sneaky', settings: { allowAutomation: true } });
    const sneaky = await t.app.inject({ method: 'GET', url: `/api/company/details?companyId=${id}` });
    expect(sneaky.json<{ data: { allowAutomation: unknown } }>().data.allowAutomation).toBe(false);
  });

  it('when the deployment sets no LOBBY_SENTRY_DSN, then details say sentryDsn null and the CSP of the pages names no reporting origin', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/company/details?companyId=18' });
    expect(res.json<{ data: { sentryDsn: unknown } }>().data.sentryDsn).toBeNull();
    const page = await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    expect(String(page.headers['content-security-policy'])).toMatch(/connect-src 'self' [^;]*wss:\/\/localhost:80;/);
  });
});

describe.each(dialects())('GET /api/company/details on a deployment allowing automation and reporting errors (%s)', (dialect) => {
  let t: TestContext;
  const dsn = 'https://public-key@errors.example.com:9443/42';
  beforeAll(async () => {
    t = await createTestContext(dialect, { config: { allowAutomation: true, sentryDsn: dsn } });
  });
  afterAll(async () => t.close());

  it('when LOBBY_ALLOW_AUTOMATION is on, then details say allowAutomation true', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/company/details?companyId=18' });
    expect(res.json<{ data: { allowAutomation: unknown } }>().data.allowAutomation).toBe(true);
  });

  it('when LOBBY_SENTRY_DSN is set, then details carry it and every page may send to its origin (CSP connect-src)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/company/details?companyId=18' });
    expect(res.json<{ data: { sentryDsn: unknown } }>().data.sentryDsn).toBe(dsn);
    const page = await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    expect(String(page.headers['content-security-policy'])).toMatch(/connect-src 'self' [^;]* https:\/\/errors\.example\.com:9443;/);
  });
});
