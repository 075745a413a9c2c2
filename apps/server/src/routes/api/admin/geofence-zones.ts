import { DataEnvelope, GeofenceZone, GeofenceZoneInput, GeofenceZoneList, RuleDeleted, RuleIdParams } from '@lobby/contracts';
import { consoleUserOf } from '../../../plugins/app/auth.ts';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail, written } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';

/** /api/admin/geofence-zones: where the company serves (polygons and circles). Admins, own company only. */
function adminGeofenceRoutes(app: App, services: Services): void {
  const rules = services.repos.guestRules;
  const meta = { tags: ['admin'], security: [{ consoleSession: [] }] };
  const zoneById = async (companyId: number, id: number) => (await rules.zones(companyId)).find((z) => z.id === id);

  app.get(
    '/geofence-zones',
    { schema: { ...meta, summary: "The company's geofence zones", response: { 200: DataEnvelope(GeofenceZoneList), ...errors(401, 403) } } },
    async (request) => ({ data: { zones: await rules.zones(consoleUserOf(request).companyId) } }),
  );

  app.post(
    '/geofence-zones',
    { schema: { ...meta, summary: 'Add a zone', body: GeofenceZoneInput, response: { 201: DataEnvelope(GeofenceZone), ...errors(400, 401, 403) } } },
    async (request, reply) => {
      const companyId = consoleUserOf(request).companyId;
      const id = await rules.addZone(companyId, request.body, services.now());
      return reply.code(201).send({ data: written(await zoneById(companyId, id)) });
    },
  );

  app.put(
    '/geofence-zones/:id',
    {
      schema: { ...meta, summary: 'Replace a zone', params: RuleIdParams, body: GeofenceZoneInput, response: { 200: DataEnvelope(GeofenceZone), ...errors(400, 401, 403, 404) } },
    },
    async (request, reply) => {
      const companyId = consoleUserOf(request).companyId;
      if (!(await rules.updateZone(companyId, request.params.id, request.body))) return fail(reply, 404, 'id: no such zone');
      return { data: written(await zoneById(companyId, request.params.id)) };
    },
  );

  app.delete(
    '/geofence-zones/:id',
    { schema: { ...meta, summary: 'Delete a zone', params: RuleIdParams, response: { 200: DataEnvelope(RuleDeleted), ...errors(400, 401, 403, 404) } } },
    async (request, reply) => {
      if (!(await rules.removeZone(consoleUserOf(request).companyId, request.params.id))) return fail(reply, 404, 'id: no such zone');
      return { data: { id: request.params.id, deleted: true as const } };
    },
  );
}

export default routes({ access: 'console', role: 'admin' }, adminGeofenceRoutes);
