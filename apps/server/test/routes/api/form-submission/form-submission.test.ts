import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { WELCOME_FORM, bearer, createForm, login, registerGuest } from '../../../helpers/fixtures.ts';

describe.each(dialects())('POST /api/form-submission and /get-submission (%s)', (dialect) => {
  let t: TestContext;
  let formId: number;
  beforeAll(async () => {
    t = await createTestContext(dialect);
    const cookie = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    formId = await createForm(t.app, cookie, WELCOME_FORM);
    await t.db.kysely.updateTable('companies').set({ settings: JSON.stringify({ welcomeForm: true }) }).where('id', '=', 18).execute();
  });
  afterAll(async () => t.close());

  const submit = (token: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/form-submission', headers: bearer(token), payload });
  const get = (token: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/form-submission/get-submission', headers: bearer(token), payload });

  it('when the guest has not submitted yet, then get-submission answers {} (the form is required)', async () => {
    const g = await registerGuest(t.app);
    const res = await get(g.access_token, { companyId: 18, guestUsername: g.username, serviceType: 'talk' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: {} });
  });

  it('when valid answers are submitted, then 201 and get-submission returns them for that service type only', async () => {
    const g = await registerGuest(t.app);
    const answers = { name: 'Sara', email: 'sara@example.com', topic: 'help' };
    const res = await submit(g.access_token, { company: 18, guestUsername: g.username, serviceType: 'talk', formId, answers });
    expect(res.statusCode).toBe(201);

    const talk = await get(g.access_token, { companyId: 18, guestUsername: g.username, serviceType: 'talk' });
    expect(talk.json<{ data: unknown }>().data).toMatchObject({ id: res.json<{ data: { id: number } }>().data.id, formId, answers });
    const widget = await get(g.access_token, { companyId: 18, guestUsername: g.username, serviceType: 'widget' });
    expect(widget.json()).toEqual({ data: {} });
  });

  it('when answers break the form definition, then 400 names the field key and nothing is stored', async () => {
    const g = await registerGuest(t.app);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ topic: 'help' }, 'answers.name: required'],
      [{ name: 'A', topic: 'other' }, 'answers.topic'],
      [{ name: 'A', topic: 'help', email: 'not-an-email' }, 'answers.email'],
      [{ name: 'A', topic: 'help', extra: 'x' }, 'answers.extra'],
      [{ name: 5, topic: 'help' }, 'answers.name'],
    ];
    for (const [answers, message] of cases) {
      const res = await submit(g.access_token, { company: 18, guestUsername: g.username, serviceType: 'talk', formId, answers });
      expect(res.statusCode, JSON.stringify(answers)).toBe(400);
      expect(res.json<{ message: string }>().message).toContain(message);
    }
    const stored = await t.db.kysely.selectFrom('form_submissions').select('id').where('guest_username', '=', g.username).execute();
    expect(stored).toEqual([]);
  });

  it('when the form id is unknown, then 404 names formId', async () => {
    const g = await registerGuest(t.app);
    const res = await submit(g.access_token, { company: 18, guestUsername: g.username, serviceType: 'talk', formId: 99999, answers: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json<{ message: string }>().message).toContain('formId');
  });

  it('when the company asks no welcome form, then get-submission answers {required: false}', async () => {
    await t.db.kysely.updateTable('companies').set({ settings: '{}' }).where('id', '=', 18).execute();
    const g = await registerGuest(t.app);
    const res = await get(g.access_token, { companyId: 18, guestUsername: g.username, serviceType: 'talk' });
    await t.db.kysely.updateTable('companies').set({ settings: JSON.stringify({ welcomeForm: true }) }).where('id', '=', 18).execute();
    expect(res.json()).toEqual({ data: { required: false } });
  });
});
