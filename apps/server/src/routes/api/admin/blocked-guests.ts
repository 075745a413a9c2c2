import { BlockedGuest, BlockedGuestInput, BlockedGuestList, BlockedGuestReason, DataEnvelope, RuleDeleted, RuleIdParams } from '@lobby/contracts';
import { consoleUserOf } from '../../../plugins/app/auth.ts';
import { DuplicateRow } from '../../../repositories/forms.ts';
import type { Services } from '../../../services/index.ts';
import { endCallsForGuest, openSince } from '../../../services/openCalls.ts';
import type { Affiliation } from '../../../services/ejabberd.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail, written } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';

/**
 * /api/admin/blocked-guests: guests of the company whose new calls answer `blocked`. Admins, own company
 * only. A block also ends the calls the guest has open (docs/security.md "Open calls"): stamped ended, no
 * more media grants for them (guest or agent), out of round robin and GET /console/rooms, their Janus rooms
 * destroyed, and the guest put out of its rooms (outcast), so that the consoles' queues, which follow the
 * rooms' occupants, drop it and the guest's app sees it leave; unblocking lets it back in.
 */
function adminBlockedGuestRoutes(app: App, services: Services): void {
  const { repos, config } = services;

  /** The guest's affiliation in these rooms (JIDs of conference rooms); a failure is logged, the block stands. */
  const affiliate = async (username: string, rooms: Array<string | null>, affiliation: Affiliation) => {
    const names = [...new Set(rooms.filter((r): r is string => r !== null).map((r) => r.split('@')[0] ?? ''))].filter(Boolean);
    await Promise.all(
      names.map((name) =>
        services.ejabberd.setAffiliation(name, `${username}@${config.xmppGuestDomain}`, affiliation).catch((err: unknown) => {
          app.log.warn({ err }, `setting ${username} ${affiliation} in ${name} failed`);
        }),
      ),
    );
  };
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
        const open = await repos.callReports.openOfGuest(companyId, guest.username, openSince(services));
        await endCallsForGuest(services, open);
        await affiliate(guest.username, open.map((c) => c.room_jid), 'outcast');
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
      const companyId = consoleUserOf(request).companyId;
      const block = await byId(companyId, request.params.id);
      if (!block || !(await rules.unblock(companyId, request.params.id))) return fail(reply, 404, 'id: no such block');
      // back into its rooms: it may call again
      await affiliate(block.guestUsername, (await repos.guests.rooms(block.guestUsername)).map((r) => r.room), 'member');
      return { data: { id: request.params.id, deleted: true as const } };
    },
  );
}

export default routes({ access: 'console', role: 'admin' }, adminBlockedGuestRoutes);
