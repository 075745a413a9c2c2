import { Type } from '@sinclair/typebox';
import type { Services } from '../../services/index.ts';
import type { App } from '../../typebox.ts';
import { errors } from '../../http/errors.ts';
import { routes } from '../../http/routes.ts';

/** the most events one post of mod_lobby_events carries (it sends at most 2,000) */
const MAX_EVENTS = 5000;
const NAME = { type: 'string', minLength: 1, maxLength: 200 } as const;

const EjabberdEventsBody = Type.Object(
  {
    events: Type.Array(
      Type.Union([
        Type.Object({ type: Type.Union([Type.Literal('join'), Type.Literal('leave')]), room: Type.String(NAME), user: Type.String(NAME) }, { additionalProperties: false }),
        Type.Object({ type: Type.Union([Type.Literal('online'), Type.Literal('offline')]), user: Type.String(NAME) }, { additionalProperties: false }),
      ]),
      { maxItems: MAX_EVENTS },
    ),
  },
  { additionalProperties: false },
);

/**
 * POST /api/ejabberd-events: what ejabberd's mod_lobby_events saw in the last half second — guests joining
 * and leaving their rooms, guests' sessions opening and ending (infra/ejabberd/modules/mod_lobby_events.erl).
 * Only ejabberd holds the secret. The events only steer where the server looks: each is confirmed with
 * ejabberd before anything is closed or destroyed (services/vanishedGuests.ts, services/guestDepartures.ts).
 * So a batch heard twice — mod_lobby_events posts it to the next instance when one answers too late
 * (docs/operations.md "ejabberd's events with several instances") — is harmless: a second `leave` does not
 * restart a room's count, a second `offline` only moves the guest's grace a little later, and an instance
 * following a room for nothing finds its guest there and stops.
 */
function ejabberdEventsRoutes(app: App, services: Services): void {
  app.post(
    '/ejabberd-events',
    {
      schema: {
        tags: ['health'],
        summary: "ejabberd's guest room and session events (mod_lobby_events); the server's own, with its secret",
        body: EjabberdEventsBody,
        response: { 204: Type.Null(), ...errors(400, 401) },
      },
    },
    async (request, reply) => {
      const muc = services.config.xmppMucDomain;
      for (const event of request.body.events) {
        if (event.type === 'join') services.vanishedGuests.joined(`${event.room}@${muc}`);
        else if (event.type === 'leave') services.vanishedGuests.left(`${event.room}@${muc}`);
        else if (event.type === 'online') services.guestDepartures.online(event.user);
        else services.guestDepartures.offline(event.user);
      }
      return reply.code(204).send(null);
    },
  );
}

export default routes({ access: 'ejabberd' }, ejabberdEventsRoutes);
