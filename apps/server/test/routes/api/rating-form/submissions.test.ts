import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { RATING_FORM, WELCOME_FORM, bearer, createForm, login, openCall, registerGuest } from '../../../helpers/fixtures.ts';

describe.each(dialects())('POST /api/rating-form/submissions (%s)', (dialect) => {
  let t: TestContext;
  let ratingFormId: number;
  let welcomeFormId: number;
  beforeAll(async () => {
    t = await createTestContext(dialect);
    const cookie = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    ratingFormId = await createForm(t.app, cookie, RATING_FORM);
    welcomeFormId = await createForm(t.app, cookie, WELCOME_FORM);
  });
  afterAll(async () => t.close());

  const rate = (token: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/rating-form/submissions', headers: bearer(token), payload });

  it('when a guest rates its call against the rating form, then 201 and a second rating of that call is 409', async () => {
    const g = await registerGuest(t.app);
    const { reportId } = await openCall(t.app, g);
    const body = { guestUsername: g.username, report: reportId, form: ratingFormId, answers: { overall: 5, comment: 'great' } };
    const res = await rate(g.access_token, body);
    expect(res.statusCode).toBe(201);
    const row = await t.db.kysely.selectFrom('rating_submissions').selectAll().where('call_report_id', '=', reportId).executeTakeFirstOrThrow();
    expect(JSON.parse(row.answers)).toEqual({ overall: 5, comment: 'great' });

    const again = await rate(g.access_token, { ...body, answers: { overall: 1 } });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toContain('report');
  });

  it('when there is no rating form, then a plain score 1–5 is accepted and anything else is 400', async () => {
    const g = await registerGuest(t.app);
    const a = await openCall(t.app, g);
    expect((await rate(g.access_token, { guestUsername: g.username, report: a.reportId, form: null, answers: { score: 6 } })).statusCode).toBe(400);
    expect((await rate(g.access_token, { guestUsername: g.username, report: a.reportId, form: null, answers: { score: 4 } })).statusCode).toBe(201);
  });

  it('when the answers break the form or the form is not a rating form, then 400 names the field', async () => {
    const g = await registerGuest(t.app);
    const { reportId } = await openCall(t.app, g);
    const missing = await rate(g.access_token, { guestUsername: g.username, report: reportId, form: ratingFormId, answers: { comment: 'x' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ message: string }>().message).toContain('answers.overall');
    const wrongKind = await rate(g.access_token, { guestUsername: g.username, report: reportId, form: welcomeFormId, answers: {} });
    expect(wrongKind.statusCode).toBe(400);
    expect(wrongKind.json<{ message: string }>().message).toContain('form');
  });

  it('when the report does not exist, then 404 names report', async () => {
    const g = await registerGuest(t.app);
    const res = await rate(g.access_token, { guestUsername: g.username, report: 987654, form: null, answers: { score: 3 } });
    expect(res.statusCode).toBe(404);
    expect(res.json<{ message: string }>().message).toContain('report');
  });
});
