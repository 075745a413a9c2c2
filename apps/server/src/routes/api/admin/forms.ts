import { DataEnvelope, FormDefinition, FormInput, FormList, RuleDeleted, RuleIdParams } from '@lobby/contracts';
import { consoleUserOf } from '../../../plugins/app/auth.ts';
import { DuplicateRow } from '../../../repositories/forms.ts';
import { checkFormFields } from '../../../services/formAnswers.ts';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail, written } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';

/** /api/admin/forms: the company's welcome and rating forms (one of each kind). Admins, own company only. */
function adminFormsRoutes(app: App, services: Services): void {
  const { repos } = services;
  const meta = { tags: ['admin'], security: [{ consoleSession: [] }] };

  app.get('/forms', { schema: { ...meta, summary: "The company's forms", response: { 200: DataEnvelope(FormList), ...errors(401, 403) } } }, async (request) => ({
    data: { forms: await repos.forms.list(consoleUserOf(request).companyId) },
  }));

  app.post(
    '/forms',
    { schema: { ...meta, summary: 'Create the welcome or the rating form', body: FormInput, response: { 201: DataEnvelope(FormDefinition), ...errors(400, 401, 403, 409) } } },
    async (request, reply) => {
      const companyId = consoleUserOf(request).companyId;
      const problem = checkFormFields(request.body.fields);
      if (problem) return fail(reply, 400, problem);
      try {
        const id = await repos.forms.create(companyId, request.body, services.now());
        return await reply.code(201).send({ data: written(await repos.forms.byId(companyId, id)) });
      } catch (err) {
        if (err instanceof DuplicateRow) return fail(reply, 409, `kind: the company already has a ${request.body.kind} form, edit it`);
        throw err;
      }
    },
  );

  app.put(
    '/forms/:id',
    {
      schema: { ...meta, summary: 'Replace a form', params: RuleIdParams, body: FormInput, response: { 200: DataEnvelope(FormDefinition), ...errors(400, 401, 403, 404, 409) } },
    },
    async (request, reply) => {
      const companyId = consoleUserOf(request).companyId;
      const problem = checkFormFields(request.body.fields);
      if (problem) return fail(reply, 400, problem);
      try {
        if (!(await repos.forms.update(companyId, request.params.id, request.body, services.now()))) return await fail(reply, 404, 'id: no such form');
      } catch (err) {
        if (err instanceof DuplicateRow) return fail(reply, 409, `kind: the company already has a ${request.body.kind} form`);
        throw err;
      }
      return { data: written(await repos.forms.byId(companyId, request.params.id)) };
    },
  );

  app.delete(
    '/forms/:id',
    { schema: { ...meta, summary: 'Delete a form', params: RuleIdParams, response: { 200: DataEnvelope(RuleDeleted), ...errors(400, 401, 403, 404) } } },
    async (request, reply) => {
      if (!(await repos.forms.remove(consoleUserOf(request).companyId, request.params.id))) return fail(reply, 404, 'id: no such form');
      return { data: { id: request.params.id, deleted: true as const } };
    },
  );
}

export default routes({ access: 'console', role: 'admin' }, adminFormsRoutes);
