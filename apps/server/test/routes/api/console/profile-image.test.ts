/**
 * A console user's picture (peers profileImageUrl, docs/protocol.md "Call status"): set by the user
 * (PUT /api/console/profile-image) or an admin (PUT /api/admin/users/{id}/profile-image) from an image the
 * company uploaded; only small images of the user's own company; the guest reads it without a token.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { PDF_BYTES, PNG_BYTES, addUser, login, multipart, otherCompanyGuest } from '../../../helpers/fixtures.ts';

describe.each(dialects())('console users\u2019 pictures (%s)', (dialect) => {
  let t: TestContext;
  let agent: string;
  let admin: string;
  beforeAll(async () => {
    t = await createTestContext(dialect);
    agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
  });
  afterAll(async () => t.close());

  /** An upload of the demo company (by its agent); answers the upload's id. */
  const upload = async (type: 'image' | 'document', content: Buffer, cookie = agent, companyId = String(DEMO.companyId)) => {
    const body = multipart({ companyId }, [{ field: type, filename: type === 'image' ? 'me.png' : 'cv.pdf', type: type === 'image' ? 'image/png' : 'application/pdf', content }]);
    const res = await t.app.inject({ method: 'POST', url: `/api/upload/${type}`, headers: { cookie, ...body.headers }, payload: body.payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: { fileUrl: string } }>().data.fileUrl.split('/').pop()!;
  };
  const setMine = (uploadId: string | null, cookie = agent) => t.app.inject({ method: 'PUT', url: '/api/console/profile-image', headers: { cookie }, payload: { uploadId } });
  const me = async (cookie = agent) =>
    (await t.app.inject({ method: 'GET', url: '/api/console/me', headers: { cookie } })).json<{ data: { user: { id: number; profileImageUrl?: string } } }>().data.user;

  it('when an agent sets an uploaded png as its picture, then its session says where, and anyone reads it without a token', async () => {
    const id = await upload('image', PNG_BYTES);
    // before it is a picture, the upload is not public
    expect((await t.app.inject({ method: 'GET', url: `/api/profile-images/${id}` })).statusCode).toBe(404);
    const res = await setMine(id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ data: { profileImageUrl: string } }>().data.profileImageUrl).toBe(`/api/profile-images/${id}`);
    expect((await me()).profileImageUrl).toBe(`/api/profile-images/${id}`);

    const img = await t.app.inject({ method: 'GET', url: `/api/profile-images/${id}` });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.headers['x-content-type-options']).toBe('nosniff');
    expect(img.rawPayload.equals(PNG_BYTES)).toBe(true);

    // cleared: the initial shows again, and the file is no longer public
    expect((await setMine(null)).statusCode).toBe(200);
    expect((await me()).profileImageUrl).toBeUndefined();
    expect((await t.app.inject({ method: 'GET', url: `/api/profile-images/${id}` })).statusCode).toBe(404);
  });

  it('when the upload is not an image, too large, unknown or of another company, then the picture is refused naming uploadId', async () => {
    const pdf = await upload('document', PDF_BYTES);
    const big = await upload('image', Buffer.concat([PNG_BYTES, crypto.randomBytes(1024 * 1024)]));
    const foreign = await otherCompanyGuest(t.app, t.db, 'Pictures Co');
    const foreignUser = await addUser(t.db, { companyId: foreign.companyId, password: 'pw-foreign-123' });
    const foreignCookie = await login(t.app, foreignUser.email, foreignUser.password);
    const theirs = await upload('image', PNG_BYTES, foreignCookie, String(foreign.companyId));

    for (const [uploadId, status] of [[pdf, 400], [big, 400], [theirs, 404], ['A'.repeat(24), 404]] as const) {
      const res = await setMine(uploadId);
      expect(res.statusCode, uploadId).toBe(status);
      expect(res.json<{ message: string }>().message).toContain('uploadId');
    }
    expect((await setMine('../../etc/passwd')).statusCode).toBe(400);
    expect((await me()).profileImageUrl).toBeUndefined();
  });

  it('when an admin sets an agent\u2019s picture, then the agent has it; another company\u2019s user is refused, and agents may not', async () => {
    const id = await upload('image', PNG_BYTES, admin);
    const agentId = (await me()).id;
    const put = (userId: number, cookie = admin) => t.app.inject({ method: 'PUT', url: `/api/admin/users/${userId}/profile-image`, headers: { cookie }, payload: { uploadId: id } });

    const res = await put(agentId);
    expect(res.statusCode, res.body).toBe(200);
    expect((await me()).profileImageUrl).toBe(`/api/profile-images/${id}`);

    const foreign = await otherCompanyGuest(t.app, t.db, 'Pictures Other Co');
    const foreignUser = await addUser(t.db, { companyId: foreign.companyId, password: 'pw-foreign-456' });
    const refused = await put(foreignUser.id);
    expect(refused.statusCode).toBe(404);
    expect(refused.json<{ message: string }>().message).toContain('id');
    expect((await me(await login(t.app, foreignUser.email, foreignUser.password))).profileImageUrl).toBeUndefined();

    expect((await put(agentId, agent)).statusCode).toBe(403);
    expect((await setMine(null)).statusCode).toBe(200);
  });
});
