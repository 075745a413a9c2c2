import { DataEnvelope, WaitPlace, WaitQuery } from '@lobby/contracts';
import { errors } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';
import { guestOf } from '../../../plugins/app/auth.ts';
import { ownedReport } from '../../../services/callOwnership.ts';
import { waitingPlaceOf } from '../../../services/waitingPlace.ts';

/**
 * The waiting guest's place in the queue and the estimate of its wait (docs/guest-journey.md "Place in
 * the queue and estimate"); the guest app asks while its call waits.
 */
export default routes({ access: 'guest' }, (app, services) => {
  app.get(
    '/wait',
    {
      schema: {
        tags: ['call report'],
        summary: "The guest's place in the queue and an estimate of its wait, as the company shows them",
        security: [{ guestBearer: [] }],
        querystring: WaitQuery,
        response: { 200: DataEnvelope(WaitPlace), ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const report = await ownedReport(services, reply, guestOf(request), request.query.call_id);
      if (!report) return reply;
      if (report.status !== 'ok') return { data: { waiting: false, position: null, estimate: null } };
      return { data: await waitingPlaceOf(services, report) };
    },
  );
});
