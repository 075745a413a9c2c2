import { DataEnvelope, IdParams, TransferBody, TransferTargets, CallIdParams } from '@lobby/contracts';
import { Type } from '@sinclair/typebox';
import { consoleUserOf } from '../../../plugins/app/auth.ts';
import { createTransfersRepository } from '../../../repositories/transfers.ts';
import { recordedAgent } from '../../../services/callVisibility.ts';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';

/**
 * Transfer (docs/protocol.md "Transfer"): the agent in a call hands it to another agent of the
 * company (or to an assignment's agents). The new agent accepts and joins the call's media room; the
 * guest stays in its room and call; the old agent leaves once the new one is in. Every transfer is a
 * row of call_transfers.
 */
function consoleTransferRoutes(app: App, services: Services): void {
  const { repos, config } = services;
  const transfers = createTransfersRepository(services.db.kysely);
  const security = [{ consoleSession: [] }];
  const jidOf = (xmppUsername: string) => `${xmppUsername}@${config.xmppDomain}`;

  app.get(
    '/transfer-targets',
    {
      schema: {
        tags: ['console'],
        summary: 'Agents of your company who could take a call now (console open on any server instance, available, not in a call), and the assignments',
        security,
        response: { 200: DataEnvelope(TransferTargets), ...errors(401) },
      },
    },
    async (request) => {
      const me = consoleUserOf(request);
      const online = (await services.roundRobin.availableAgents(me.companyId)).filter((a) => a.userId !== me.id);
      const agents = [];
      for (const a of online) {
        const u = await repos.users.byId(a.userId);
        if (u && u.companyId === me.companyId) agents.push({ id: u.id, name: u.name, jid: jidOf(u.xmppUsername) });
      }
      const assignments = (await repos.companies.assignments(me.companyId)).map((a) => ({ id: a.id, name: a.name }));
      return { data: { agents, assignments } };
    },
  );

  app.post(
    '/calls/:callId/transfer',
    {
      schema: {
        tags: ['console'],
        summary: 'Hand your call to another agent (toUserId) or to the agents of an assignment (assignmentId)',
        security,
        params: CallIdParams,
        body: TransferBody,
        response: { 201: DataEnvelope(Type.Object({ id: Type.Integer() })), ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const me = consoleUserOf(request);
      const { callId } = request.params;
      const { toUserId, assignmentId } = request.body;
      if ((toUserId === undefined) === (assignmentId === undefined)) return fail(reply, 400, 'toUserId: give exactly one of toUserId and assignmentId');
      const report = await repos.callReports.byCallId(callId);
      if (!report || report.company_id !== me.companyId || report.call_ended_at !== null || !report.room_jid) {
        return fail(reply, 404, 'callId: no open call under this id');
      }
      // the agent the server recorded (its media grant, or a transfer it took), not whom the guest named
      if (recordedAgent(report) !== jidOf(me.xmppUsername)) return fail(reply, 403, 'callId: you are not the agent of this call');
      const roomName = report.room_jid.split('@')[0] ?? report.room_jid;
      let targets: string[];
      if (toUserId !== undefined) {
        const to = await repos.users.byId(toUserId);
        if (!to || to.companyId !== me.companyId) return fail(reply, 404, 'toUserId: no such user in this company');
        if (to.id === me.id) return fail(reply, 400, 'toUserId: you cannot transfer a call to yourself');
        targets = [to.xmppUsername];
      } else {
        const assignment = (await repos.companies.assignments(me.companyId)).find((a) => a.id === assignmentId);
        if (!assignment) return fail(reply, 404, 'assignmentId: no such assignment in this company');
        targets = (await repos.companies.assignmentAgents(assignment.id)).filter((u) => u !== me.xmppUsername);
      }
      // the new agent may serve another assignment: it must be able to enter the guest's room
      for (const t of targets) await services.ejabberd.setAffiliation(roomName, jidOf(t), 'admin');
      const id = await transfers.add({
        companyId: me.companyId,
        callId,
        fromUserId: me.id,
        toUserId: toUserId ?? null,
        toAssignmentId: assignmentId ?? null,
        now: services.now(),
      });
      services.events.publish('callTransfer', {
        companyId: me.companyId,
        id,
        callId,
        room: report.room_jid,
        guestUsername: report.guest_username,
        fromName: me.name,
        fromJid: jidOf(me.xmppUsername),
        toUserId: toUserId ?? null,
        toAssignmentId: assignmentId ?? null,
      });
      return reply.code(201).send({ data: { id } });
    },
  );

  app.post(
    '/transfers/:id/accept',
    {
      schema: {
        tags: ['console'],
        summary: 'Take a call handed to you: you become its agent (then join its media room)',
        security,
        params: IdParams,
        response: {
          200: DataEnvelope(Type.Object({ id: Type.Integer(), callId: Type.String(), room: Type.String(), guestUsername: Type.String() })),
          ...errors(400, 401, 403, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const me = consoleUserOf(request);
      const t = await transfers.byId(me.companyId, request.params.id);
      if (!t) return fail(reply, 404, 'id: no such transfer');
      const mine = t.to_user_id === me.id || (t.to_assignment_id !== null && (await repos.users.assignmentIds(me.id)).includes(t.to_assignment_id));
      if (!mine || t.from_user_id === me.id) return fail(reply, 403, 'id: this transfer is not for you');
      const report = await repos.callReports.byCallId(t.call_id);
      if (!report || report.call_ended_at !== null || !report.room_jid) return fail(reply, 409, 'id: the call has ended');
      if (!(await transfers.accept(t.id, me.id, services.now()))) return fail(reply, 409, 'id: the transfer was already taken');
      const toJid = jidOf(me.xmppUsername);
      await repos.callReports.patch(report.id, { agent: toJid });
      services.events.publish('transferAccepted', { companyId: me.companyId, id: t.id, callId: t.call_id, toJid });
      return { data: { id: t.id, callId: t.call_id, room: report.room_jid, guestUsername: report.guest_username } };
    },
  );
}

export default routes({ access: 'console' }, consoleTransferRoutes);
