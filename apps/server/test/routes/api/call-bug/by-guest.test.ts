import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { bearer, openCall, registerGuest } from '../../../helpers/fixtures.ts';

describe.each(dialects())('POST /api/call-bug/by-guest (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect);
  });
  afterAll(async () => t.close());

  it('when a guest reports a failed stage, then 201 {id} and the log, state and client info are stored as text', async () => {
    const g = await registerGuest(t.app);
    const { callId } = await openCall(t.app, g);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/call-bug/by-guest',
      headers: bearer(g.access_token),
      payload: { guest_log: ['createOffer failed'], guest_state: { stage: 'createOffer' }, guest_client_info: 'Chrome 140', call_id: callId, guest_id: 'abc' },
    });
    expect(res.statusCode).toBe(201);
    const row = await t.db.kysely.selectFrom('call_bugs').selectAll().where('id', '=', res.json<{ data: { id: number } }>().data.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      company_id: 18,
      call_id: callId,
      guest_username: g.username,
      guest_id: 'abc',
      guest_log: '["createOffer failed"]',
      guest_state: '{"stage":"createOffer"}',
      guest_client_info: 'Chrome 140',
    });
  });

  it('when a required part is missing, then 400 names it', async () => {
    const g = await registerGuest(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/call-bug/by-guest',
      headers: bearer(g.access_token),
      payload: { guest_log: 'x', guest_client_info: 'y', call_id: `${g.username}--z` },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toContain('guest_state');
  });
});
