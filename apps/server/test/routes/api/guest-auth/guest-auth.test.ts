import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { addCompany, bearer, randomGuestId, registerGuest } from '../../../helpers/fixtures.ts';

describe.each(dialects())('POST /api/guest-auth (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect);
  });
  afterAll(async () => t.close());

  it('when a registered guestId asks, then 200 gives fresh tokens for the same username', async () => {
    const guestId = randomGuestId();
    const g = await registerGuest(t.app, { guestId });
    t.clock.now += 1000;

    const res = await t.app.inject({ method: 'POST', url: '/api/guest-auth', payload: { guestId } });

    expect(res.statusCode).toBe(200);
    const { data } = res.json<{ data: { username: string; access_token: string; credential: string; guestRooms: unknown[] } }>();
    expect(data.username).toBe(g.username);
    expect(data.access_token).not.toBe(g.access_token);
    expect(data.guestRooms).toEqual(g.guestRooms);
    const details = await t.app.inject({ method: 'GET', url: `/api/guest/details?username=${g.username}`, headers: bearer(data.access_token) });
    expect(details.statusCode).toBe(200);
  });

  it('when the guestId was never registered, then 404 names guestId', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/guest-auth', payload: { guestId: randomGuestId() } });
    expect(res.statusCode).toBe(404);
    expect(res.json<{ message: string }>().message).toContain('guestId');
  });

  it('when the guestId was registered with another company, then 404 (no cross-company login)', async () => {
    const other = await addCompany(t.db, { name: 'Other' });
    const guestId = randomGuestId();
    await registerGuest(t.app, { guestId, companyId: other });
    const res = await t.app.inject({ method: 'POST', url: '/api/guest-auth', payload: { guestId, companyId: 18 } });
    expect(res.statusCode).toBe(404);
  });

  it('when the body is malformed, then 400 names guestId', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/guest-auth', payload: { guestId: 'nope' } });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain('guestId');
  });

  it('when the browser sends its location, then guest auth gives it back as strings, empty when none, and a malformed one is 400', async () => {
    const guestId = randomGuestId();
    await registerGuest(t.app, { guestId });
    const withLocation = await t.app.inject({ method: 'POST', url: '/api/guest-auth', payload: { guestId, location: { latitude: '24.7136', longitude: '46.6753' } } });
    expect(withLocation.json<{ data: { location: unknown } }>().data.location).toEqual({ latitude: '24.7136', longitude: '46.6753' });
    const without = await t.app.inject({ method: 'POST', url: '/api/guest-auth', payload: { guestId } });
    expect(without.json<{ data: { location: unknown } }>().data.location).toEqual({ latitude: '', longitude: '' });
    const bad = await t.app.inject({ method: 'POST', url: '/api/guest-auth', payload: { guestId, location: { latitude: 'north', longitude: '1' } } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('location');
  });
});
