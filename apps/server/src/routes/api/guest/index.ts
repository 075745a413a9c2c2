import { DataEnvelope, GuestDetails, GuestDetailsQuery, GuestRegisterBody, GuestRegistration } from '@lobby/contracts';
import { guestOf } from '../../../plugins/app/auth.ts';
import { NO_LOCATION, guestCredentials, hashGuestId, newGuestUsername, ROOMS_UNAVAILABLE, provisionedRoomsOrNull, resolveCompany } from '../../../services/guests.ts';
import type { Services } from '../../../services/index.ts';
import { guestRateLimit } from '../../../services/guestRateLimit.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';

function guestRoutes(app: App, services: Services): void {
  app.post(
    '/register',
    {
      config: { access: 'public', rateLimit: guestRateLimit(services) },
      schema: {
        tags: ['guest'],
        summary: 'Register (or find again) the guest of a persistent browser id; creates its rooms',
        description:
          'Same guestId and company give the same username. 409 when the company is not activated (the guest app shows its inactive screen).',
        body: GuestRegisterBody,
        response: { 201: DataEnvelope(GuestRegistration), ...errors(400, 404, 409, 429, 503) },
      },
    },
    async (request, reply) => {
      const company = await resolveCompany(services, request, request.body.companyId);
      if (!company) return fail(reply, 404, 'companyId: no such company');
      if (!company.activated) return fail(reply, 409, 'company is not activated');
      const guest = await services.repos.guests.findOrCreate(company.id, hashGuestId(request.body.guestId), newGuestUsername(), services.now());
      const guestRooms = await provisionedRoomsOrNull(services, company, guest.username, request.log);
      if (!guestRooms) return fail(reply, 503, ROOMS_UNAVAILABLE);
      return reply.code(201).send({ data: { ...guestCredentials(services, guest.username, company.id), guestRooms, location: request.body.location ?? NO_LOCATION } });
    },
  );

  app.get(
    '/details',
    {
      schema: {
        tags: ['guest'],
        summary: "The calling guest's own record",
        security: [{ guestBearer: [] }],
        querystring: GuestDetailsQuery,
        response: { 200: DataEnvelope(GuestDetails), ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const me = guestOf(request);
      if (request.query.username !== me.username) return fail(reply, 403, 'username: you may only read your own details');
      const guest = await services.repos.guests.byUsername(me.username);
      if (!guest || guest.companyId !== me.companyId) return fail(reply, 404, 'username: no such guest');
      const guestRooms = await services.repos.guests.rooms(guest.username);
      return {
        data: {
          username: guest.username,
          jabberusername: `${guest.username}@${services.config.xmppGuestDomain}`,
          companyId: guest.companyId,
          createdAt: new Date(guest.createdAt).toISOString(),
          guestRooms,
        },
      };
    },
  );
}

export default routes({ access: 'guest' }, guestRoutes);
