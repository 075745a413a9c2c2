import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { createFakeMediaRooms } from '../../../helpers/fakes.ts';
import { RATING_FORM, WELCOME_FORM, addCompany, addUser, answeredCall, bearer, createForm, login, openCall, registerGuest, resumeAfterHold } from '../../../helpers/fixtures.ts';

describe.each(dialects())('POST /api/rating-form/submissions (%s)', (dialect) => {
  let t: TestContext;
  let admin: string;
  let ratingFormId: number;
  let welcomeFormId: number;
  beforeAll(async () => {
    // a Janus stand-in: answeredCall takes the guest's and the agent's media grants
    t = await createTestContext(dialect, { deps: { mediaRooms: createFakeMediaRooms() } });
    admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    ratingFormId = await createForm(t.app, admin, RATING_FORM);
    welcomeFormId = await createForm(t.app, admin, WELCOME_FORM);
  });
  afterAll(async () => t.close());

  const settings = async (patch: Record<string, unknown>) => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/admin/company', headers: { cookie: admin }, payload: patch });
    expect(res.statusCode, res.body).toBe(200);
  };
  const requireRatingForm = () => settings({ advanceRating: true, ratingForm: { id: ratingFormId } });
  beforeEach(async () => settings({ advanceRating: false, ratingForm: null }));

  const rate = (token: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/rating-form/submissions', headers: bearer(token), payload });

  it('when a guest rates its answered call against the rating form the company requires, then 201 and a second rating of that call is 409', async () => {
    await requireRatingForm();
    const g = await registerGuest(t.app);
    const { reportId } = await answeredCall(t.app, g);
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
    const a = await answeredCall(t.app, g);
    expect((await rate(g.access_token, { guestUsername: g.username, report: a.reportId, form: null, answers: { score: 6 } })).statusCode).toBe(400);
    const extra = await rate(g.access_token, { guestUsername: g.username, report: a.reportId, form: null, answers: { score: 4, mood: 'ok' } });
    expect(extra.statusCode).toBe(400);
    expect(extra.json<{ message: string }>().message).toMatch(/^answers\.mood: /);
    expect((await rate(g.access_token, { guestUsername: g.username, report: a.reportId, form: null, answers: { score: 4 } })).statusCode).toBe(201);
  });

  it('when a guest gives 4 stars with a comment (no rating form), then both are stored', async () => {
    const g = await registerGuest(t.app);
    const { reportId } = await answeredCall(t.app, g);
    const res = await rate(g.access_token, { guestUsername: g.username, report: reportId, form: null, answers: { score: 4, comment: 'Quick and kind' } });
    expect(res.statusCode, res.body).toBe(201);
    const row = await t.db.kysely.selectFrom('rating_submissions').selectAll().where('call_report_id', '=', reportId).executeTakeFirstOrThrow();
    expect(JSON.parse(row.answers)).toEqual({ score: 4, comment: 'Quick and kind' });
    const long = await answeredCall(t.app, g);
    const tooLong = await rate(g.access_token, { guestUsername: g.username, report: long.reportId, form: null, answers: { score: 4, comment: 'x'.repeat(1001) } });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json<{ message: string }>().message).toMatch(/^answers\.comment: /);
  });

  it('when the company requires its rating form, then a plain score is 400 naming form, and nothing is stored', async () => {
    await requireRatingForm();
    const g = await registerGuest(t.app);
    const { reportId } = await answeredCall(t.app, g);
    const res = await rate(g.access_token, { guestUsername: g.username, report: reportId, form: null, answers: { score: 5 } });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/^form: the company asks its rating form/);
    expect(await t.db.kysely.selectFrom('rating_submissions').selectAll().where('call_report_id', '=', reportId).execute()).toEqual([]);
  });

  it('when the company asks a plain score, then a rating form submission is 400 naming form', async () => {
    const g = await registerGuest(t.app);
    const { reportId } = await answeredCall(t.app, g);
    const res = await rate(g.access_token, { guestUsername: g.username, report: reportId, form: ratingFormId, answers: { overall: 5 } });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/^form: /);
  });

  it('when the answers break the form or the form is not a rating form, then 400 names the field', async () => {
    await requireRatingForm();
    const g = await registerGuest(t.app);
    const { reportId } = await answeredCall(t.app, g);
    const missing = await rate(g.access_token, { guestUsername: g.username, report: reportId, form: ratingFormId, answers: { comment: 'x' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ message: string }>().message).toContain('answers.overall');
    const wrongKind = await rate(g.access_token, { guestUsername: g.username, report: reportId, form: welcomeFormId, answers: {} });
    expect(wrongKind.statusCode).toBe(400);
    expect(wrongKind.json<{ message: string }>().message).toContain('form');
  });

  it('when the call was never answered, then the rating is 403 naming report', async () => {
    const g = await registerGuest(t.app);
    const { reportId } = await openCall(t.app, g);
    const res = await rate(g.access_token, { guestUsername: g.username, report: reportId, form: null, answers: { score: 1 } });
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toBe('report: the call was not answered');
  });

  it("when the guest forged its call's answered flag and no agent took the call, then the rating is 403 naming report; once an agent of the company takes its media, the rating is accepted", async () => {
    const g = await registerGuest(t.app);
    const { reportId, callId } = await openCall(t.app, g);
    // what a modified guest browser can do alone: its own media grant and the answered flag of its own report
    expect((await t.app.inject({ method: 'POST', url: '/api/call-report/media', headers: bearer(g.access_token), payload: { call_id: callId } })).statusCode).toBe(200);
    const forged = await t.app.inject({ method: 'PUT', url: '/api/call-report/update-timestamp', headers: bearer(g.access_token), payload: { call_id: callId, call_answered_timestamp: true } });
    expect(forged.statusCode).toBe(200);
    const refused = await rate(g.access_token, { guestUsername: g.username, report: reportId, form: null, answers: { score: 5 } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ message: string }>().message).toBe('report: the call was not answered');
    expect(await t.db.kysely.selectFrom('rating_submissions').selectAll().where('call_report_id', '=', reportId).execute()).toEqual([]);

    // an agent of another company is not this company's agent: 404, and the call is still not answered
    const other = await addCompany(t.db, { name: 'Other rating company' });
    const stranger = await addUser(t.db, { companyId: other, password: 'other-rating-agent-pw' });
    const strangerGrant = await t.app.inject({ method: 'POST', url: `/api/console/calls/${callId}/media`, headers: { cookie: await login(t.app, stranger.email, stranger.password) } });
    expect(strangerGrant.statusCode).toBe(404);
    expect((await rate(g.access_token, { guestUsername: g.username, report: reportId, form: null, answers: { score: 5 } })).statusCode).toBe(403);

    const agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    expect((await t.app.inject({ method: 'POST', url: `/api/console/calls/${callId}/media`, headers: { cookie: agent } })).statusCode).toBe(200);
    const accepted = await rate(g.access_token, { guestUsername: g.username, report: reportId, form: null, answers: { score: 5 } });
    expect(accepted.statusCode, accepted.body).toBe(201);
  });

  it('when an agent took the first call of a hold chain, then the resumed call is rated; the answered time the guest reported is kept for reports only', async () => {
    const g = await registerGuest(t.app);
    const first = await answeredCall(t.app, g);
    const resumed = await resumeAfterHold(t.app, g, first.callId);
    const report = await t.db.kysely.selectFrom('call_reports').select(['id', 'call_answered_at', 'agent_answered_at']).where('call_id', '=', resumed).executeTakeFirstOrThrow();
    expect(report.agent_answered_at).toBeNull();
    const res = await rate(g.access_token, { guestUsername: g.username, report: report.id, form: null, answers: { score: 3 } });
    expect(res.statusCode, res.body).toBe(201);
    const firstRow = await t.db.kysely.selectFrom('call_reports').select(['call_answered_at', 'agent_answered_at']).where('call_id', '=', first.callId).executeTakeFirstOrThrow();
    expect(firstRow.agent_answered_at).not.toBeNull();
    expect(firstRow.call_answered_at).not.toBeNull();
  });

  it('when the call was blocked, then the rating is 403 naming report and nothing is stored', async () => {
    const g = await registerGuest(t.app);
    const block = await t.app.inject({ method: 'POST', url: '/api/admin/blocked-guests', headers: { cookie: admin }, payload: { guestUsername: g.username, reason: 'abuse' } });
    expect(block.statusCode).toBe(201);
    const { reportId, callId } = await openCall(t.app, g);
    // even with an answered timestamp forged by the guest's own client
    await t.app.inject({ method: 'PUT', url: '/api/call-report/update-timestamp', headers: bearer(g.access_token), payload: { call_id: callId, call_answered_timestamp: true } });
    const res = await rate(g.access_token, { guestUsername: g.username, report: reportId, form: null, answers: { score: 1 } });
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toBe('report: the call was not accepted (blocked)');
    expect(await t.db.kysely.selectFrom('rating_submissions').selectAll().where('call_report_id', '=', reportId).execute()).toEqual([]);
  });

  it('when the report does not exist, then 404 names report', async () => {
    const g = await registerGuest(t.app);
    const res = await rate(g.access_token, { guestUsername: g.username, report: 987654, form: null, answers: { score: 3 } });
    expect(res.statusCode).toBe(404);
    expect(res.json<{ message: string }>().message).toContain('report');
  });
});
