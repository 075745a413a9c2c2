import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { DEMO } from '../../../helpers/context.ts';
import { bearer, login, registerGuest } from '../../../helpers/fixtures.ts';

// A square around central Riyadh and a 1 km circle around the Eiffel Tower.
const SQUARE = { name: 'Riyadh', kind: 'polygon', coordinates: [[46.6, 24.6], [46.8, 24.6], [46.8, 24.8], [46.6, 24.8]] };
const CIRCLE = { name: 'Paris', kind: 'circle', center: { lat: 48.8584, lng: 2.2945 }, radiusMeters: 1000 };

describe.each(dialects())('PUT /api/geo-fence/check (%s)', (dialect) => {
  let t: TestContext;
  let token: string;
  beforeAll(async () => {
    t = await createTestContext(dialect);
    token = (await registerGuest(t.app)).access_token;
  });
  afterAll(async () => t.close());

  const check = (lat: unknown, lng: unknown) =>
    t.app.inject({ method: 'PUT', url: '/api/geo-fence/check', headers: bearer(token), payload: { lat, lng, companyID: 18 } });

  it('when the company has no zones, then everywhere is inside', async () => {
    const res = await check(0, 0);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { inside: true } });
  });

  it('when zones exist, then a point in the polygon or the circle is inside and one elsewhere is outside (403)', async () => {
    const cookie = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    for (const zone of [SQUARE, CIRCLE]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/admin/geofence-zones', headers: { cookie }, payload: zone });
      expect(res.statusCode).toBe(201);
    }
    expect((await check(24.7, 46.7)).statusCode).toBe(200);
    expect((await check('48.8600', '2.2950')).statusCode).toBe(200); // strings, as the browser stores them
    const outsideCircle = await check(48.8584, 2.32); // ~1.8 km east
    expect(outsideCircle.statusCode).toBe(403);
    expect(outsideCircle.json<{ message: string }>().message).toContain('outside');
    expect((await check(24.9, 46.7)).statusCode).toBe(403);
  });

  it('when lat or lng is out of range or not a number, then 400 names it', async () => {
    for (const [lat, lng, field] of [[91, 0, 'lat'], [0, 181, 'lng'], ['abc', 0, 'lat']] as const) {
      const res = await check(lat, lng);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toContain(field);
    }
  });
});
