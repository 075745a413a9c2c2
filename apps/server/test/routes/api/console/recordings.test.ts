/**
 * /api/console/recordings: supervisors and admins of the company list, download and delete its call
 * recordings (docs/api.md); agents get 403, anonymous callers 401, another company's users 404 / nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingsRoot } from '../../../../src/services/recordings/index.ts';
import { DEMO, createTestContext, dialects } from '../../../helpers/context.ts';
import type { TestContext } from '../../../helpers/context.ts';
import { addAssignment, addCompany, addUser, login, openCall, registerGuest } from '../../../helpers/fixtures.ts';

interface Listed {
  callId: string;
  serviceType: 'talk' | 'widget';
  size: number;
  url: string;
}

describe.each(dialects())('/api/console/recordings (%s)', (dialect) => {
  let t: TestContext;
  let root: string;
  let admin: string;
  let supervisor: string;
  let agent: string;
  let otherSupervisor: string;
  let widgetCall: string;
  let talkCall: string;

  /** A processed recording as the sweep leaves it: raw files, {callId}.mp4 and {callId}.tracks.mkv, newer than them. */
  const recorded = (callId: string) => {
    const dir = path.join(root, String(DEMO.companyId), callId);
    fs.mkdirSync(dir, { recursive: true });
    const raw = path.join(dir, `${callId}_guest_1-audio-0.mjr`);
    fs.writeFileSync(raw, 'raw');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(raw, old, old);
    fs.writeFileSync(path.join(dir, `${callId}.mp4`), Buffer.alloc(2048, 1));
    fs.writeFileSync(path.join(dir, `${callId}.tracks.mkv`), Buffer.alloc(4096, 2));
    return dir;
  };
  const list = async (cookie: string, query = '') => {
    const res = await t.app.inject({ method: 'GET', url: `/api/console/recordings${query}`, headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: { recordings: Listed[] } }>().data.recordings;
  };

  beforeAll(async () => {
    t = await createTestContext(dialect);
    root = recordingsRoot(t.config);
    admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
    const s = await addUser(t.db, { companyId: DEMO.companyId, role: 'supervisor', password: 'supervisor-password' });
    supervisor = await login(t.app, s.email, s.password);
    const otherCompany = await addCompany(t.db, { name: 'Other recordings Co' });
    await addAssignment(t.db, otherCompany, 'Other desk');
    const os = await addUser(t.db, { companyId: otherCompany, role: 'supervisor', password: 'other-supervisor-password' });
    otherSupervisor = await login(t.app, os.email, os.password);

    widgetCall = (await openCall(t.app, await registerGuest(t.app), { service_type: 'widget' })).callId;
    talkCall = (await openCall(t.app, await registerGuest(t.app), { service_type: 'talk' })).callId;
    recorded(widgetCall);
    recorded(talkCall);
  });
  afterAll(async () => t.close());

  it('when a supervisor lists, then every recording of the company answers with its service; a service narrows the list', async () => {
    const all = await list(supervisor);
    expect(all.map((r) => [r.callId, r.serviceType]).sort()).toEqual([[talkCall, 'talk'], [widgetCall, 'widget']].sort());
    expect((await list(supervisor, '?service=widget')).map((r) => r.callId)).toEqual([widgetCall]);
    expect((await list(admin, '?service=talk')).map((r) => r.callId)).toEqual([talkCall]);
  });

  it('when a supervisor downloads, then the recording is the MP4 and the raw tracks are the Matroska file beside it', async () => {
    const [entry] = await list(supervisor, '?service=talk');
    const file = await t.app.inject({ method: 'GET', url: entry?.url ?? '', headers: { cookie: supervisor } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('video/mp4');
    expect(file.rawPayload.length).toBe(2048);
    const tracks = await t.app.inject({ method: 'GET', url: (entry as Listed & { tracksUrl: string }).tracksUrl, headers: { cookie: supervisor } });
    expect(tracks.statusCode).toBe(200);
    expect(tracks.headers['content-type']).toBe('video/x-matroska');
    expect(tracks.headers['content-disposition']).toContain(`${talkCall}.tracks.mkv`);
    expect(tracks.rawPayload.length).toBe(4096);
  });

  it('when an agent lists, downloads or deletes, then 403 and the file stays', async () => {
    for (const [method, url] of [
      ['GET', '/api/console/recordings'],
      ['GET', `/api/console/recordings/${talkCall}/file`],
      ['GET', `/api/console/recordings/${talkCall}/tracks`],
      ['DELETE', `/api/console/recordings/${talkCall}`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: { cookie: agent } });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json<{ message: string }>().message).toContain('role');
    }
    expect(fs.existsSync(path.join(root, String(DEMO.companyId), talkCall, `${talkCall}.mp4`))).toBe(true);
  });

  it('when nobody is logged in, then 401', async () => {
    for (const [method, url] of [
      ['GET', '/api/console/recordings'],
      ['GET', `/api/console/recordings/${talkCall}/file`],
      ['GET', `/api/console/recordings/${talkCall}/tracks`],
      ['DELETE', `/api/console/recordings/${talkCall}`],
    ] as const) {
      expect((await t.app.inject({ method, url })).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('when another company\u2019s supervisor lists, downloads or deletes, then it sees nothing and gets 404, and the file stays', async () => {
    expect(await list(otherSupervisor)).toEqual([]);
    const file = await t.app.inject({ method: 'GET', url: `/api/console/recordings/${talkCall}/file`, headers: { cookie: otherSupervisor } });
    expect(file.statusCode).toBe(404);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/console/recordings/${talkCall}`, headers: { cookie: otherSupervisor } });
    expect(del.statusCode).toBe(404);
    expect(del.json<{ message: string }>().message).toContain('callId');
    expect(fs.existsSync(path.join(root, String(DEMO.companyId), talkCall, `${talkCall}.mp4`))).toBe(true);
  });

  it('when a supervisor deletes a recording, then its files are removed from disk, it leaves the list, and a second delete is 404', async () => {
    const dir = path.join(root, String(DEMO.companyId), widgetCall);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/console/recordings/${widgetCall}`, headers: { cookie: supervisor } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { callId: widgetCall, deleted: true } });
    expect(fs.existsSync(dir)).toBe(false);
    expect((await list(admin)).map((r) => r.callId)).toEqual([talkCall]);
    const again = await t.app.inject({ method: 'DELETE', url: `/api/console/recordings/${widgetCall}`, headers: { cookie: admin } });
    expect(again.statusCode).toBe(404);
    const download = await t.app.inject({ method: 'GET', url: `/api/console/recordings/${widgetCall}/file`, headers: { cookie: admin } });
    expect(download.statusCode).toBe(404);
  });

  it('when an admin deletes, then it works as for a supervisor; a malformed call id is 404 and touches nothing', async () => {
    const bad = await t.app.inject({ method: 'DELETE', url: `/api/console/recordings/${encodeURIComponent('../18')}`, headers: { cookie: admin } });
    expect(bad.statusCode).toBe(404);
    expect(fs.existsSync(path.join(root, String(DEMO.companyId), talkCall))).toBe(true);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/console/recordings/${talkCall}`, headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    expect(fs.existsSync(path.join(root, String(DEMO.companyId), talkCall))).toBe(false);
  });
});
