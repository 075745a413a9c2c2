import { BlockedGuest, BlockedGuestInput, BlockedGuestList, BlockedGuestReason, DataEnvelope, RuleDeleted, RuleIdParams } from '@lobby/contracts';
import { consoleUserOf } from '../../../plugins/app/auth.ts';
import { DuplicateRow } from '../../../repositories/forms.ts';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail, written } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';

/** /api/admin/blocked-guests: guests of the company whose new calls answer `blocked`. Admins, own company only. */
function adminBlockedGuestRoutes(app: App, services: Services): void {
  const { repos } = services;
  const rules = repos.guestRules;
  const meta = { tags: ['admin'], security: [{ consoleSession: [] }] };
  const byId = async (companyId: number, id: number) => (await rules.blocked(companyId)).find((b) => b.id === id);

  app.get(
    '/blocked-guests',
    { schema: { ...meta, summary: "The company's blocked guests", response: { 200: DataEnvelope(BlockedGuestList), ...errors(401, 403) } } },
    async (request) => ({ data: { blockedGuests: await rules.blocked(consoleUserOf(request).companyId) } }),
  );

  app.post(
    '/blocked-guests',
    {
      schema: { ...meta, summary: 'Block a guest of the company', body: BlockedGuestInput, response: { 201: DataEnvelope(BlockedGuest), ...errors(400, 401, 403, 404, 409) } },
    },
    async (request, reply) => {
      const companyId = consoleUserOf(request).companyId;
      const guest = await repos.guests.byUsername(request.body.guestUsername);
      if (!guest || guest.companyId !== companyId) return fail(reply, 404, 'guestUsername: no such guest in your company');
      try {
        const id = await rules.block(companyId, guest.username, request.body.reason, services.now());
        return await reply.code(201).send({ data: written(await byId(companyId, id)) });
      } catch (err) {
        if (err instanceof DuplicateRow) return fail(reply, 409, 'guestUsername: already blocked');
        throw err;
      }
    },
  );

  app.put(
    '/blocked-guests/:id',
    {
      schema: { ...meta, summary: 'Change the reason of a block', params: RuleIdParams, body: BlockedGuestReason, response: { 200: DataEnvelope(BlockedGuest), ...errors(400, 401, 403, 404) } },
    },
    async (request, reply) => {
      const companyId = consoleUserOf(request).companyId;
      if (!(await rules.updateBlockReason(companyId, request.params.id, request.body.reason))) return fail(reply, 404, 'id: no such block');
      return { data: written(await byId(companyId, request.params.id)) };
    },
  );

  app.delete(
    '/blocked-guests/:id',
    { schema: { ...meta, summary: 'Unblock', params: RuleIdParams, response: { 200: DataEnvelope(RuleDeleted), ...errors(400, 401, 403, 404) } } },
    async (request, reply) => {
      if (!(await rules.unblock(consoleUserOf(request).companyId, request.params.id))) return fail(reply, 404, 'id: no such block');
      return { data: { id: request.params.id, deleted: true as const } };
    },
  );
}

export default routes({ access: 'console', role: 'admin' }, adminBlockedGuestRoutes);
