import { AppointmentReferenceParams, DataEnvelope, GuestAppointment } from '@lobby/contracts';
import { guestOf } from '../../../plugins/app/auth.ts';
import { createAppointmentsRepository } from '../../../repositories/appointments.ts';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';

/**
 * The guest of /appointment/{reference} looks its appointment up before calling: the call targets the
 * appointment agent's lowercase username (presence target) and carries the appointment id. The guest
 * learns only that (no note, no agent name) and only for an appointment of its own company.
 */
function guestAppointmentRoutes(app: App, services: Services): void {
  const repo = createAppointmentsRepository(services.db.kysely, services.now);
  app.get(
    '/:reference',
    {
      schema: {
        tags: ['guest'],
        summary: 'The appointment of a guest link /appointment/{reference}: id, agent username (lowercase), time',
        security: [{ guestBearer: [] }],
        params: AppointmentReferenceParams,
        response: { 200: DataEnvelope(GuestAppointment), ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const guest = guestOf(request);
      const found = await repo.byReference(request.params.reference);
      // another company's reference answers exactly like an unknown one
      if (!found || found.companyId !== guest.companyId) return fail(reply, 404, 'reference: no such appointment');
      return {
        data: {
          id: found.id,
          reference: found.reference,
          agentUsername: found.agentXmppUsername.toLowerCase(),
          startsAt: found.startsAt,
        },
      };
    },
  );
}

export default routes({ access: 'guest' }, guestAppointmentRoutes);
