import { DataEnvelope, GeoFenceCheckBody, GeoFenceInside } from '@lobby/contracts';
import { guestOf } from '../../../plugins/app/auth.ts';
import { isInside } from '../../../services/geofence.ts';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';

/** PUT /api/geo-fence/check: 200 inside; 403 outside (the guest counts any failure as outside). */
function geoFenceRoutes(app: App, services: Services): void {
  const { repos } = services;
  app.put(
    '/check',
    {
      schema: {
        tags: ['geofence'],
        summary: "Whether the guest's position is inside the company's service area (zones: polygons and circles)",
        security: [{ guestBearer: [] }],
        body: GeoFenceCheckBody,
        response: { 200: DataEnvelope(GeoFenceInside), ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const guest = guestOf(request);
      const b = request.body;
      if (b.companyID !== guest.companyId) return fail(reply, 403, 'companyID: not the company of your access_token');
      // The browser keeps the position as strings; the schema already checked their shape.
      const lat = Number(b.lat);
      const lng = Number(b.lng);
      if (!(lat >= -90 && lat <= 90)) return fail(reply, 400, 'lat: must be between -90 and 90');
      if (!(lng >= -180 && lng <= 180)) return fail(reply, 400, 'lng: must be between -180 and 180');
      const company = await repos.companies.byId(guest.companyId);
      if (!company) return fail(reply, 404, 'companyID: no such company');
      const zones = await repos.guestRules.zones(company.id);
      if (!isInside(lat, lng, zones, company.settings.locationOfService)) {
        await services.geofencePasses.failed(guest.username);
        return fail(reply, 403, 'lat, lng: outside the service area');
      }
      // call-report/add asks for this pass when the company requests location
      await services.geofencePasses.passed(guest.username);
      return { data: { inside: true as const } };
    },
  );
}

export default routes({ access: 'guest' }, geoFenceRoutes);
