import { CreatedId, DataEnvelope, FormSubmissionBody, GetSubmissionBody, Submission } from '@lobby/contracts';
import type { Answers } from '@lobby/contracts';
import { guestOf } from '../../../plugins/app/auth.ts';
import { checkAnswers } from '../../../services/formAnswers.ts';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';

/** The welcome form: submitted before a call, checked against the company's definition. */
function formSubmissionRoutes(app: App, services: Services): void {
  const { repos } = services;

  app.post(
    '',
    {
      schema: {
        tags: ['forms'],
        summary: "Submit the company's welcome form (answers keyed by field key)",
        security: [{ guestBearer: [] }],
        body: FormSubmissionBody,
        response: { 201: DataEnvelope(CreatedId), ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const guest = guestOf(request);
      const b = request.body;
      if (b.company !== guest.companyId) return fail(reply, 403, 'company: not the company of your access_token');
      if (b.guestUsername !== guest.username) return fail(reply, 403, 'guestUsername: not the guest of your access_token');
      const form = await repos.forms.byId(guest.companyId, b.formId);
      if (!form) return fail(reply, 404, 'formId: no such form in this company');
      if (form.kind !== 'welcome') return fail(reply, 400, 'formId: not a welcome form (ratings go to /api/rating-form/submissions)');
      const problem = checkAnswers(form.fields, b.answers as Answers);
      if (problem) return fail(reply, 400, problem);
      const id = await repos.forms.addSubmission({
        companyId: guest.companyId,
        formId: form.id,
        guestUsername: guest.username,
        serviceType: b.serviceType,
        // Checked against the form above.
        answers: b.answers as Answers,
        now: services.now(),
      });
      return reply.code(201).send({ data: { id } });
    },
  );

  app.post(
    '/get-submission',
    {
      schema: {
        tags: ['forms'],
        summary: "The guest's welcome-form submission: {} while the form is still required, {required: false} when the company asks none",
        security: [{ guestBearer: [] }],
        body: GetSubmissionBody,
        response: { 200: DataEnvelope(Submission), ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const guest = guestOf(request);
      const b = request.body;
      if (b.companyId !== guest.companyId) return fail(reply, 403, 'companyId: not the company of your access_token');
      if (b.guestUsername !== guest.username) return fail(reply, 403, 'guestUsername: not the guest of your access_token');
      const company = await repos.companies.byId(guest.companyId);
      if (!company) return fail(reply, 404, 'companyId: no such company');
      const form = await repos.forms.byKind(company.id, 'welcome');
      if (!company.settings.welcomeForm || !form) return { data: { required: false as const } };
      const latest = await repos.forms.latestSubmission(company.id, form.id, guest.username, b.serviceType);
      return { data: latest ?? {} };
    },
  );
}

export default routes({ access: 'guest' }, formSubmissionRoutes);
