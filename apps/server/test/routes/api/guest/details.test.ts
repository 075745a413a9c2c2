import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { bearer, registerGuest } from '../../../helpers/fixtures.ts';

describe.each(dialects())('GET /api/guest/details (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect);
  });
  afterAll(async () => t.close());

  it('when a guest asks for its own username, then it gets its record and rooms', async () => {
    const g = await registerGuest(t.app);

    const res = await t.app.inject({ method: 'GET', url: `/api/guest/details?username=${g.username}`, headers: bearer(g.access_token) });

    expect(res.statusCode).toBe(200);
    const { data } = res.json<{ data: Record<string, unknown> }>();
    expect(data).toMatchObject({ username: g.username, jabberusername: g.jabberusername, companyId: 18, guestRooms: g.guestRooms });
    expect(new Date(String(data.createdAt)).getTime()).toBeGreaterThan(0);
  });

  it('when there is no token, then 401', async () => {
    const g = await registerGuest(t.app);
    const res = await t.app.inject({ method: 'GET', url: `/api/guest/details?username=${g.username}` });
    expect(res.statusCode).toBe(401);
    expect(res.json<{ message: string }>().message).toContain('authorization');
  });

  it("when a guest asks for another guest's username, then 403", async () => {
    const me = await registerGuest(t.app);
    const other = await registerGuest(t.app);
    const res = await t.app.inject({ method: 'GET', url: `/api/guest/details?username=${other.username}`, headers: bearer(me.access_token) });
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toContain('username');
  });

  it('when the token has expired, then 401', async () => {
    const g = await registerGuest(t.app);
    t.clock.now += 3 * 3600 * 1000;
    try {
      const res = await t.app.inject({ method: 'GET', url: `/api/guest/details?username=${g.username}`, headers: bearer(g.access_token) });
      expect(res.statusCode).toBe(401);
    } finally {
      t.clock.now -= 3 * 3600 * 1000;
    }
  });

  it('when the username is malformed, then 400 names username', async () => {
    const g = await registerGuest(t.app);
    const res = await t.app.inject({ method: 'GET', url: '/api/guest/details?username=bob', headers: bearer(g.access_token) });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain('username');
  });
});
