import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../helpers/context.ts';
import type { TestContext } from '../../helpers/context.ts';
import { PNG_BYTES, RATING_FORM, WELCOME_FORM, bearer, createForm, login, multipart, openCall, otherCompanyGuest, registerGuest } from '../../helpers/fixtures.ts';
import type { RegisteredGuest } from '../../helpers/fixtures.ts';

/**
 * Every guest route, tried by the wrong guest (of the same company) and with the wrong company: 403 each time,
 * and the owner's data is unchanged. The owner's call, forms and rating exist, so a 404 cannot pass for a 403.
 */
interface Case {
  name: string;
  /** the request another guest of the same company makes against the owner's data */
  wrongGuest: (owner: RegisteredGuest, intruder: RegisteredGuest) => InjectOptions;
  /** the owner's own request naming another company (or that company's guest's call) */
  wrongCompany: (owner: RegisteredGuest, foreign: RegisteredGuest) => InjectOptions;
}

describe.each(dialects())('ownership of every guest route (%s)', (dialect) => {
  let t: TestContext;
  let owner: RegisteredGuest;
  let intruder: RegisteredGuest;
  let foreign: RegisteredGuest;
  let call: { callId: string; reportId: number };
  let foreignCall: { callId: string; reportId: number };
  let welcomeId: number;
  let ratingId: number;

  beforeAll(async () => {
    t = await createTestContext(dialect);
    const cookie = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    welcomeId = await createForm(t.app, cookie, WELCOME_FORM);
    ratingId = await createForm(t.app, cookie, RATING_FORM);
    owner = await registerGuest(t.app);
    intruder = await registerGuest(t.app);
    foreign = await otherCompanyGuest(t.app, t.db);
    call = await openCall(t.app, owner);
    foreignCall = await openCall(t.app, foreign);
  });
  afterAll(async () => t.close());

  const cases: Case[] = [
    {
      name: 'GET /api/guest/details',
      wrongGuest: (o, i) => ({ method: 'GET', url: `/api/guest/details?username=${o.username}`, headers: bearer(i.access_token) }),
      wrongCompany: (o, f) => ({ method: 'GET', url: `/api/guest/details?username=${f.username}`, headers: bearer(o.access_token) }),
    },
    {
      name: 'POST /api/call-report/add',
      wrongGuest: (o, i) => ({ method: 'POST', url: '/api/call-report/add', headers: bearer(i.access_token), payload: { call_id: `${o.username}--x1`, company: 18, source: 'site' } }),
      wrongCompany: (o, f) => ({ method: 'POST', url: '/api/call-report/add', headers: bearer(o.access_token), payload: { call_id: `${o.username}--x2`, company: f.companyId, source: 'site' } }),
    },
    {
      name: 'POST /api/call-report/hold-call',
      wrongGuest: (_o, i) => ({ method: 'POST', url: '/api/call-report/hold-call', headers: bearer(i.access_token), payload: { origin_call_id: call.callId, current_call_id: call.callId, new_call_id: `${i.username}--h1` } }),
      wrongCompany: (o) => ({ method: 'POST', url: '/api/call-report/hold-call', headers: bearer(o.access_token), payload: { origin_call_id: foreignCall.callId, current_call_id: foreignCall.callId, new_call_id: `${o.username}--h2` } }),
    },
    {
      name: 'PUT /api/call-report/update',
      wrongGuest: (_o, i) => ({ method: 'PUT', url: '/api/call-report/update', headers: bearer(i.access_token), payload: { call_id: call.callId, success: false } }),
      wrongCompany: (o) => ({ method: 'PUT', url: '/api/call-report/update', headers: bearer(o.access_token), payload: { call_id: foreignCall.callId, success: false } }),
    },
    {
      name: 'PUT /api/call-report/update-timestamp',
      wrongGuest: (_o, i) => ({ method: 'PUT', url: '/api/call-report/update-timestamp', headers: bearer(i.access_token), payload: { call_id: call.callId, call_ended_timestamp: true } }),
      wrongCompany: (o) => ({ method: 'PUT', url: '/api/call-report/update-timestamp', headers: bearer(o.access_token), payload: { call_id: foreignCall.callId, call_ended_timestamp: true } }),
    },
    {
      name: 'POST /api/call-bug/by-guest',
      wrongGuest: (_o, i) => ({ method: 'POST', url: '/api/call-bug/by-guest', headers: bearer(i.access_token), payload: { guest_log: 'x', guest_state: 'y', guest_client_info: 'z', call_id: call.callId } }),
      wrongCompany: (o) => ({ method: 'POST', url: '/api/call-bug/by-guest', headers: bearer(o.access_token), payload: { guest_log: 'x', guest_state: 'y', guest_client_info: 'z', call_id: foreignCall.callId } }),
    },
    {
      name: 'POST /api/form-submission',
      wrongGuest: (o, i) => ({ method: 'POST', url: '/api/form-submission', headers: bearer(i.access_token), payload: { company: 18, guestUsername: o.username, serviceType: 'talk', formId: welcomeId, answers: { name: 'a', topic: 'help' } } }),
      wrongCompany: (o, f) => ({ method: 'POST', url: '/api/form-submission', headers: bearer(o.access_token), payload: { company: f.companyId, guestUsername: o.username, serviceType: 'talk', formId: welcomeId, answers: { name: 'a', topic: 'help' } } }),
    },
    {
      name: 'POST /api/form-submission/get-submission',
      wrongGuest: (o, i) => ({ method: 'POST', url: '/api/form-submission/get-submission', headers: bearer(i.access_token), payload: { companyId: 18, guestUsername: o.username, serviceType: 'talk' } }),
      wrongCompany: (o, f) => ({ method: 'POST', url: '/api/form-submission/get-submission', headers: bearer(o.access_token), payload: { companyId: f.companyId, guestUsername: o.username, serviceType: 'talk' } }),
    },
    {
      name: 'POST /api/rating-form/submissions',
      wrongGuest: (o, i) => ({ method: 'POST', url: '/api/rating-form/submissions', headers: bearer(i.access_token), payload: { guestUsername: i.username, report: call.reportId, form: ratingId, answers: { overall: 1 } } }),
      wrongCompany: (o) => ({ method: 'POST', url: '/api/rating-form/submissions', headers: bearer(o.access_token), payload: { guestUsername: o.username, report: foreignCall.reportId, form: null, answers: { score: 1 } } }),
    },
    {
      name: 'PUT /api/geo-fence/check',
      // The geofence concerns no guest's data: "the wrong guest" is a token that names another guest's username nowhere,
      // so the wrong-guest case is a forged company claim in the body.
      wrongGuest: (_o, i) => ({ method: 'PUT', url: '/api/geo-fence/check', headers: bearer(i.access_token), payload: { lat: 0, lng: 0, companyID: foreign.companyId } }),
      wrongCompany: (o, f) => ({ method: 'PUT', url: '/api/geo-fence/check', headers: bearer(o.access_token), payload: { lat: 0, lng: 0, companyID: f.companyId } }),
    },
    {
      name: 'POST /api/upload/image',
      wrongGuest: (_o, i) => {
        const m = multipart({ companyId: String(foreign.companyId), forChat: 'true' }, [{ field: 'image', filename: 'a.png', type: 'image/png', content: PNG_BYTES }]);
        return { method: 'POST', url: '/api/upload/image', headers: { ...bearer(i.access_token), ...m.headers }, payload: m.payload };
      },
      wrongCompany: (o, f) => {
        const m = multipart({ companyId: String(f.companyId), forChat: 'true' }, [{ field: 'image', filename: 'a.png', type: 'image/png', content: PNG_BYTES }]);
        return { method: 'POST', url: '/api/upload/image', headers: { ...bearer(o.access_token), ...m.headers }, payload: m.payload };
      },
    },
  ];

  const snapshot = async () => ({
    report: await t.db.kysely.selectFrom('call_reports').selectAll().where('call_id', '=', call.callId).executeTakeFirstOrThrow(),
    reports: (await t.db.kysely.selectFrom('call_reports').select('id').execute()).length,
    bugs: (await t.db.kysely.selectFrom('call_bugs').select('id').execute()).length,
    submissions: (await t.db.kysely.selectFrom('form_submissions').select('id').execute()).length,
    ratings: (await t.db.kysely.selectFrom('rating_submissions').select('id').execute()).length,
    uploads: (await t.db.kysely.selectFrom('uploads').select('id').execute()).length,
  });

  for (const c of cases) {
    it(`when the wrong guest or the wrong company calls ${c.name}, then 403 and nothing changes`, async () => {
      const before = await snapshot();
      const asIntruder = await t.app.inject(c.wrongGuest(owner, intruder));
      const otherCompany = await t.app.inject(c.wrongCompany(owner, foreign));
      expect(asIntruder.statusCode, asIntruder.body).toBe(403);
      expect(otherCompany.statusCode, otherCompany.body).toBe(403);
      expect(await snapshot()).toEqual(before);
    });
  }
});
