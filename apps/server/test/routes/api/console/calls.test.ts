import type { CallSummary } from '@lobby/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { createFakeMediaRooms } from '../../../helpers/fakes.ts';
import { WELCOME_FORM, addUser, answeredCall, bearer, createForm, login, openCall, otherCompanyGuest, registerGuest, resumeAfterHold } from '../../../helpers/fixtures.ts';

describe.each(dialects())('console calls: details and the note after the call (%s)', (dialect) => {
  let t: TestContext;
  let agent: string;
  let admin: string;
  let formId: number;
  beforeAll(async () => {
    // a Janus stand-in: answeredCall takes the guest's and the agent's media grants
    t = await createTestContext(dialect, { deps: { mediaRooms: createFakeMediaRooms() } });
    agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    formId = await createForm(t.app, admin, WELCOME_FORM);
  });
  afterAll(async () => t.close());

  const details = (callId: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: `/api/console/calls/${callId}`, headers });
  const note = (callId: string, headers: Record<string, string>, payload: unknown) =>
    t.app.inject({ method: 'PUT', url: `/api/console/calls/${callId}/note`, headers, payload: payload as Record<string, unknown> });

  it('when a guest rated its call with a comment, then the latest calls show the score and the comment', async () => {
    const g = await registerGuest(t.app);
    const { callId, reportId } = await answeredCall(t.app, g);
    const rated = await t.app.inject({
      method: 'POST',
      url: '/api/rating-form/submissions',
      headers: bearer(g.access_token),
      payload: { guestUsername: g.username, report: reportId, form: null, answers: { score: 4, comment: 'Quick and kind' } },
    });
    expect(rated.statusCode, rated.body).toBe(201);
    const unrated = await answeredCall(t.app, g);

    const res = await t.app.inject({ method: 'GET', url: '/api/console/calls?limit=50', headers: { cookie: admin } });
    const calls = res.json<{ data: Array<{ callId: string; rating: unknown }> }>().data;
    expect(calls.find((c) => c.callId === callId)?.rating).toEqual({ score: 4, comment: 'Quick and kind' });
    expect(calls.find((c) => c.callId === unrated.callId)?.rating).toBeNull();
  });

  it('when a guest named itself on the welcome form and an agent answered, then the latest calls give the guest\u2019s name and the agent\u2019s; a guest without a form has no name', async () => {
    const named = await registerGuest(t.app);
    const submitted = await t.app.inject({
      method: 'POST',
      url: '/api/form-submission',
      headers: bearer(named.access_token),
      payload: { company: 18, guestUsername: named.username, serviceType: 'talk', formId, answers: { name: '  Sara Nasser ', email: 'sara@example.com', topic: 'help' } },
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    t.clock.now += 1000;
    const namedCall = await answeredCall(t.app, named);
    const unnamed = await answeredCall(t.app, await registerGuest(t.app));
    const agentUser = await t.db.kysely.selectFrom('users').select('name').where('email', '=', DEMO.agentEmail).executeTakeFirstOrThrow();

    const res = await t.app.inject({ method: 'GET', url: '/api/console/calls?limit=50', headers: { cookie: admin } });
    const calls = res.json<{ data: CallSummary[] }>().data;
    expect(calls.find((c) => c.callId === namedCall.callId)).toMatchObject({ guestUsername: named.username, guestName: 'Sara Nasser', agentName: agentUser.name });
    expect(calls.find((c) => c.callId === unnamed.callId)).toMatchObject({ guestName: null, agentName: agentUser.name });
  });

  it("when a guest filled the welcome form and called with a position, then the company's agent reads both with the call", async () => {
    const g = await registerGuest(t.app);
    const submitted = await t.app.inject({
      method: 'POST',
      url: '/api/form-submission',
      headers: bearer(g.access_token),
      payload: { company: 18, guestUsername: g.username, serviceType: 'talk', formId, answers: { name: 'Mona Haddad', email: 'mona@example.com', topic: 'help' } },
    });
    expect(submitted.statusCode).toBe(201);
    t.clock.now += 1000;
    const { callId } = await openCall(t.app, g, { location: { latitude: '24.7136', longitude: '46.6753' } });

    const res = await details(callId, { cookie: agent });

    expect(res.statusCode).toBe(200);
    const { data } = res.json<{ data: Record<string, unknown> }>();
    expect(data).toMatchObject({
      callId,
      guestUsername: g.username,
      location: { latitude: '24.7136', longitude: '46.6753' },
      note: null,
      form: {
        title: 'Before we start',
        answers: [
          { key: 'name', label: 'Name', value: 'Mona Haddad' },
          { key: 'email', label: 'Email', value: 'mona@example.com' },
          { key: 'topic', label: 'Topic', value: 'help' },
        ],
      },
    });
  });

  it('when the guest gave no position and no form, then location and form are null', async () => {
    const g = await registerGuest(t.app);
    const { callId } = await openCall(t.app, g, { location: { latitude: '', longitude: '' } });
    const { data } = (await details(callId, { cookie: agent })).json<{ data: Record<string, unknown> }>();
    expect(data.location).toBeNull();
    expect(data.form).toBeNull();
  });

  it('when a position is not a number string, then 400 names location', async () => {
    const g = await registerGuest(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/call-report/add',
      headers: bearer(g.access_token),
      payload: { call_id: `${g.username}--x1`, company: 18, source: 'site', location: { latitude: 'north', longitude: '1' } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain('location');
  });

  it('when the agent writes a note after the call, then it is stored with the author and listed for the admin; empty removes it', async () => {
    const g = await registerGuest(t.app);
    const { callId } = await openCall(t.app, g);

    const written = await note(callId, { cookie: agent }, { note: '  Wants a callback on Sunday.  ' });

    expect(written.statusCode).toBe(200);
    expect(written.json<{ data: { note: unknown } }>().data.note).toMatchObject({ text: 'Wants a callback on Sunday.', by: expect.any(String) as string });
    const rows = await t.db.kysely.selectFrom('call_reports').select(['agent_note', 'agent_note_by']).where('call_id', '=', callId).execute();
    expect(rows[0]?.agent_note).toBe('Wants a callback on Sunday.');
    expect(rows[0]?.agent_note_by).toEqual(expect.any(Number));
    const list = await t.app.inject({ method: 'GET', url: '/api/console/calls?limit=10', headers: { cookie: admin } });
    expect(list.statusCode).toBe(200);
    const listed = list.json<{ data: Array<{ callId: string; note: { text: string } | null }> }>().data.find((c) => c.callId === callId);
    expect(listed?.note?.text).toBe('Wants a callback on Sunday.');

    const removed = await note(callId, { cookie: agent }, { note: '' });
    expect(removed.json<{ data: { note: unknown } }>().data.note).toBeNull();
  });

  it('when the caller is anonymous or a guest, then 401; another company cannot see or note the call (404)', async () => {
    const g = await registerGuest(t.app);
    const { callId } = await openCall(t.app, g);
    expect((await details(callId, {})).statusCode).toBe(401);
    expect((await note(callId, {}, { note: 'x' })).statusCode).toBe(401);
    expect((await details(callId, bearer(g.access_token))).statusCode).toBe(401);
    expect((await note(callId, bearer(g.access_token), { note: 'mine' })).statusCode).toBe(401);

    const other = await otherCompanyGuest(t.app, t.db, 'Rival Co');
    const rival = await addUser(t.db, { companyId: other.companyId, password: 'rival-password-1234', role: 'admin' });
    const rivalCookie = await login(t.app, rival.email, rival.password);
    expect((await details(callId, { cookie: rivalCookie })).statusCode).toBe(404);
    expect((await note(callId, { cookie: rivalCookie }, { note: 'spy' })).statusCode).toBe(404);
    const row = await t.db.kysely.selectFrom('call_reports').select('agent_note').where('call_id', '=', callId).executeTakeFirst();
    expect(row?.agent_note).toBeNull();
    const list = await t.app.inject({ method: 'GET', url: '/api/console/calls', headers: { cookie: rivalCookie } });
    expect(list.json<{ data: Array<{ callId: string }> }>().data.map((c) => c.callId)).not.toContain(callId);
  });

  it('when an agent lists the calls, then 403 (supervisors and admins)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/console/calls', headers: { cookie: agent } });
    expect(res.statusCode).toBe(403);
  });

  it('when the call id or the note is malformed, then 400 naming it', async () => {
    const bad = await details('not-a-call', { cookie: agent });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('callId');
    const g = await registerGuest(t.app);
    const { callId } = await openCall(t.app, g);
    const long = await note(callId, { cookie: agent }, { note: 'x'.repeat(4001) });
    expect(long.statusCode).toBe(400);
    expect(long.json<{ message: string }>().message).toContain('note');
    const missing = await note(callId, { cookie: agent }, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ message: string }>().message).toContain('note');
  });

  // a call held and resumed continues under a new call id; the reports count the
  // conversation once, and so does "Latest calls"
  it('when a call was answered, held, resumed and ended, then it is listed once with the chain\u2019s talk time and its last note', async () => {
    const guest = await registerGuest(t.app);
    const stamp = async (callId: string, flag: string) => {
      const res = await t.app.inject({ method: 'PUT', url: '/api/call-report/update-timestamp', headers: bearer(guest.access_token), payload: { call_id: callId, [flag]: true } });
      expect(res.statusCode, res.body).toBe(200);
    };
    const first = await answeredCall(t.app, guest); // answered at T
    t.clock.now += 10_000;
    const resumed = await resumeAfterHold(t.app, guest, first.callId); // held part: T → T+10 s
    await stamp(resumed, 'call_answered_timestamp');
    t.clock.now += 5000;
    await stamp(resumed, 'call_ended_timestamp'); // resumed part: 5 s
    const note = await t.app.inject({ method: 'PUT', url: `/api/console/calls/${resumed}/note`, headers: { cookie: agent }, payload: { note: 'Sent the offer' } });
    expect(note.statusCode, note.body).toBe(200);

    const res = await t.app.inject({ method: 'GET', url: '/api/console/calls?limit=50', headers: { cookie: admin } });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json<{ data: CallSummary[] }>().data.filter((c) => c.guestUsername === guest.username);

    expect(rows.map((r) => r.callId)).toEqual([first.callId]);
    expect(rows[0]).toMatchObject({ answered: true, parts: 2, talkSeconds: 15 });
    expect(rows[0]?.note?.text).toBe('Sent the offer');
  });
});
