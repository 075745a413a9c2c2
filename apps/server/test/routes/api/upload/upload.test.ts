import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { PDF_BYTES, PNG_BYTES, addUser, bearer, login, multipart, otherCompanyGuest, registerGuest } from '../../../helpers/fixtures.ts';

describe.each(dialects())('POST /api/upload/{type} and GET /api/files/{id} (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect);
  });
  afterAll(async () => t.close());

  const upload = (type: string, headers: Record<string, string>, fields: Record<string, string>, file: { field?: string; filename: string; type: string; content: Buffer }) => {
    const body = multipart(fields, [{ field: file.field ?? type, ...file }]);
    return t.app.inject({ method: 'POST', url: `/api/upload/${type}`, headers: { ...headers, ...body.headers }, payload: body.payload });
  };

  it('when a guest uploads a png, then 201 fileUrl, and only it and its company console read it back, with nosniff', async () => {
    const g = await registerGuest(t.app);
    const res = await upload('image', bearer(g.access_token), { companyId: '18', forChat: 'true' }, { filename: 'shot.png', type: 'image/png', content: PNG_BYTES });
    expect(res.statusCode).toBe(201);
    const { fileUrl } = res.json<{ data: { fileUrl: string } }>().data;
    expect(fileUrl).toMatch(/^\/api\/files\/[A-Za-z0-9_-]+$/);

    const mine = await t.app.inject({ method: 'GET', url: fileUrl, headers: bearer(g.access_token) });
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['content-type']).toBe('image/png');
    expect(mine.headers['x-content-type-options']).toBe('nosniff');
    expect(mine.rawPayload.equals(PNG_BYTES)).toBe(true);

    const other = await registerGuest(t.app);
    expect((await t.app.inject({ method: 'GET', url: fileUrl, headers: bearer(other.access_token) })).statusCode).toBe(403);
    const agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    expect((await t.app.inject({ method: 'GET', url: fileUrl, headers: { cookie: agent } })).statusCode).toBe(200);
    const foreign = await otherCompanyGuest(t.app, t.db, 'Files Co');
    const foreignUser = await addUser(t.db, { companyId: foreign.companyId, password: 'pw-foreign-123' });
    const foreignCookie = await login(t.app, foreignUser.email, foreignUser.password);
    expect((await t.app.inject({ method: 'GET', url: fileUrl, headers: { cookie: foreignCookie } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: fileUrl })).statusCode).toBe(401);
  });

  it('when an agent uploads a file for its call\'s guest, then that guest reads it and another guest gets 403', async () => {
    const g = await registerGuest(t.app);
    const agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    const res = await upload('image', { cookie: agent }, { companyId: '18', forChat: 'true', guestUsername: g.username }, { filename: 'offer.png', type: 'image/png', content: PNG_BYTES });
    expect(res.statusCode).toBe(201);
    const { fileUrl } = res.json<{ data: { fileUrl: string } }>().data;
    const theirs = await t.app.inject({ method: 'GET', url: fileUrl, headers: bearer(g.access_token) });
    expect(theirs.statusCode).toBe(200);
    expect(theirs.rawPayload.equals(PNG_BYTES)).toBe(true);
    const other = await registerGuest(t.app);
    expect((await t.app.inject({ method: 'GET', url: fileUrl, headers: bearer(other.access_token) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: fileUrl, headers: { cookie: agent } })).statusCode).toBe(200);
  });

  it('when an agent names a guest of another company (or none that exists), then 404 names guestUsername', async () => {
    const agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    const foreign = await otherCompanyGuest(t.app, t.db, 'Files Other Co');
    for (const guestUsername of [foreign.username, 'nobody-here']) {
      const res = await upload('image', { cookie: agent }, { companyId: '18', guestUsername }, { filename: 'a.png', type: 'image/png', content: PNG_BYTES });
      expect(res.statusCode).toBe(404);
      expect(res.json<{ message: string }>().message).toContain('guestUsername');
    }
  });

  it('when a pdf is uploaded as a document, then it is served as an attachment', async () => {
    const g = await registerGuest(t.app);
    const res = await upload('document', bearer(g.access_token), { companyId: '18', forChat: 'true' }, { filename: 'a.pdf', type: 'application/pdf', content: PDF_BYTES });
    expect(res.statusCode).toBe(201);
    const file = await t.app.inject({ method: 'GET', url: res.json<{ data: { fileUrl: string } }>().data.fileUrl, headers: bearer(g.access_token) });
    expect(file.headers['content-disposition']).toMatch(/^attachment/);
  });

  it('when the content is HTML or SVG named .png, then 400 names the field and nothing is stored', async () => {
    const g = await registerGuest(t.app);
    for (const content of ['<html><script>alert(1)</script></html>', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>']) {
      const res = await upload('image', bearer(g.access_token), { companyId: '18', forChat: 'true' }, { filename: 'x.png', type: 'image/png', content: Buffer.from(content) });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toContain('image');
    }
    expect(await t.db.kysely.selectFrom('uploads').select('id').where('guest_username', '=', g.username).execute()).toEqual([]);
  });

  it('when the file is larger than the type allows, then 413 names the field', async () => {
    const g = await registerGuest(t.app);
    const big = Buffer.concat([PNG_BYTES, crypto.randomBytes(5 * 1024 * 1024)]);
    const res = await upload('image', bearer(g.access_token), { companyId: '18', forChat: 'true' }, { filename: 'big.png', type: 'image/png', content: big });
    expect(res.statusCode).toBe(413);
    expect(res.json<{ message: string }>().message).toContain('image');
  });

  it('when the file is under another field, the type is unknown or companyId is missing, then 4xx names the problem', async () => {
    const g = await registerGuest(t.app);
    const wrongField = await upload('image', bearer(g.access_token), { companyId: '18' }, { field: 'file', filename: 'a.png', type: 'image/png', content: PNG_BYTES });
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json<{ message: string }>().message).toContain('file');
    const badType = await upload('video', bearer(g.access_token), { companyId: '18' }, { filename: 'a.png', type: 'image/png', content: PNG_BYTES });
    expect(badType.statusCode).toBe(400);
    expect(badType.json<{ message: string }>().message).toContain('type');
    const noCompany = await upload('image', bearer(g.access_token), {}, { filename: 'a.png', type: 'image/png', content: PNG_BYTES });
    expect(noCompany.statusCode).toBe(400);
    expect(noCompany.json<{ message: string }>().message).toContain('companyId');
  });
});

describe('POST /api/upload/{type} with a broken multipart body', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext('sqlite');
  });
  afterAll(async () => t.close());

  it('when the multipart body has no boundary, is cut off or empty, then 400 (found by the fuzz test)', async () => {
    const g = await registerGuest(t.app);
    const good = multipart({ companyId: '18' }, [{ field: 'image', filename: 'a.png', type: 'image/png', content: PNG_BYTES }]);
    for (const [contentType, payload] of [
      ['multipart/form-data', undefined],
      ['multipart/form-data', 'abc'],
      [good.headers['content-type'], good.payload.subarray(0, 60)],
      [good.headers['content-type'], ''],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/api/upload/image', headers: { ...bearer(g.access_token), 'content-type': contentType }, payload });
      expect(res.statusCode, `${contentType} ${String(payload)}`).toBe(400);
    }
  });
});

describe('POST /api/upload/{type} rate limit', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext('sqlite', { config: { uploadRateLimit: 2 } });
  });
  afterAll(async () => t.close());

  it('when a client uploads more than the limit per minute, then 429', async () => {
    const g = await registerGuest(t.app);
    const codes: number[] = [];
    for (let i = 0; i < 3; i++) {
      const body = multipart({ companyId: '18' }, [{ field: 'image', filename: 'a.png', type: 'image/png', content: PNG_BYTES }]);
      const res = await t.app.inject({ method: 'POST', url: '/api/upload/image', headers: { ...bearer(g.access_token), ...body.headers }, payload: body.payload });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([201, 201, 429]);
  });
});
