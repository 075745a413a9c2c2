import { DataEnvelope, GuestAuth, GuestAuthBody } from '@lobby/contracts';
import { NO_LOCATION, guestCredentials, hashGuestId, ROOMS_UNAVAILABLE, provisionedRoomsOrNull, resolveCompany } from '../../../services/guests.ts';
import type { Services } from '../../../services/index.ts';
import { guestRateLimit } from '../../../services/guestRateLimit.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';

function guestAuthRoutes(app: App, services: Services): void {
  app.post(
    '',
    {
      config: { rateLimit: guestRateLimit(services) },
      schema: {
        tags: ['guest'],
        summary: 'Fresh access_token and XMPP credential for an already registered guest',
        body: GuestAuthBody,
        response: { 200: DataEnvelope(GuestAuth), ...errors(400, 404, 409, 429, 503) },
      },
    },
    async (request, reply) => {
      const company = await resolveCompany(services, request, request.body.companyId);
      if (!company) return fail(reply, 404, 'companyId: no such company');
      if (!company.activated) return fail(reply, 409, 'company is not activated');
      const guest = await services.repos.guests.byIdHash(company.id, hashGuestId(request.body.guestId));
      if (!guest) return fail(reply, 404, 'guestId: no guest registered with this id, register first');
      // fresh credentials, so the rooms are provisioned again: the janitor may have destroyed idle ones
      const guestRooms = await provisionedRoomsOrNull(services, company, guest.username, request.log);
      if (!guestRooms) return fail(reply, 503, ROOMS_UNAVAILABLE);
      return { data: { ...guestCredentials(services, guest.username, company.id), guestRooms, location: request.body.location ?? NO_LOCATION } };
    },
  );
}

export default routes({ access: 'public' }, guestAuthRoutes);
