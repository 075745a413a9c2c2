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
import { addAssignment, addCompany, addUser, answeredCall, bearer, login, openCall, registerGuest } from '../../../helpers/fixtures.ts';
import { createFakeMediaRooms } from '../../../helpers/fakes.ts';

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
    // a Janus stand-in: answeredCall takes the guest's and the agent's media grants
    t = await createTestContext(dialect, { deps: { mediaRooms: createFakeMediaRooms() } });
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

  it('when a recorded call was answered and rated, then its row gives the guest, the agent who answered, the talk time and the rating', async () => {
    const guest = await registerGuest(t.app);
    const { callId, reportId } = await answeredCall(t.app, guest);
    t.clock.now += 42_000;
    const ended = await t.app.inject({ method: 'PUT', url: '/api/call-report/update-timestamp', headers: bearer(guest.access_token), payload: { call_id: callId, call_ended_timestamp: true } });
    expect(ended.statusCode, ended.body).toBe(200);
    const rated = await t.app.inject({
      method: 'POST',
      url: '/api/rating-form/submissions',
      headers: bearer(guest.access_token),
      payload: { guestUsername: guest.username, report: reportId, form: null, answers: { score: 5, comment: 'Clear' } },
    });
    expect(rated.statusCode, rated.body).toBe(201);
    recorded(callId);
    const agentUser = await t.db.kysely.selectFrom('users').select('name').where('email', '=', DEMO.agentEmail).executeTakeFirstOrThrow();

    const row = (await list(supervisor)).find((r) => r.callId === callId);
    expect(row).toMatchObject({ guestUsername: guest.username, guestName: null, agentName: agentUser.name, rating: { score: 5, comment: 'Clear' } });
    expect((row as unknown as { talkSeconds: number }).talkSeconds).toBeGreaterThan(0);
    // an unanswered one says so
    expect((await list(supervisor)).find((r) => r.callId === talkCall)).toMatchObject({ agentName: null, talkSeconds: null, rating: null });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/console/recordings/${callId}`, headers: { cookie: supervisor } })).statusCode).toBe(200);
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

  it('when a player asks for byte ranges, then one range is answered 206 with its part, a range past the end 416, and several ranges or none the whole file', async () => {
    // a recording whose every byte says where it is
    const callId = (await openCall(t.app, await registerGuest(t.app), { service_type: 'talk' })).callId;
    const dir = recorded(callId);
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
    fs.writeFileSync(path.join(dir, `${callId}.mp4`), bytes);
    const get = (range?: string) =>
      t.app.inject({ method: 'GET', url: `/api/console/recordings/${callId}/file`, headers: { cookie: supervisor, ...(range ? { range } : {}) } });

    const whole = await get();
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.equals(bytes)).toBe(true);

    for (const [range, start, end] of [
      ['bytes=1000-1999', 1000, 1999],
      ['bytes=4000-', 4000, 4999],
      ['bytes=-100', 4900, 4999],
      ['bytes=4990-9999', 4990, 4999], // the end is cut to the file
      ['bytes=0-0', 0, 0],
    ] as const) {
      const part = await get(range);
      expect(part.statusCode, range).toBe(206);
      expect(part.headers['content-range'], range).toBe(`bytes ${start}-${end}/5000`);
      expect(part.headers['content-length'], range).toBe(String(end - start + 1));
      expect(part.headers['content-type'], range).toBe('video/mp4');
      expect(part.headers['accept-ranges'], range).toBe('bytes');
      expect(part.rawPayload.equals(bytes.subarray(start, end + 1)), range).toBe(true);
    }

    for (const range of ['bytes=5000-', 'bytes=9000-9100', 'bytes=-0']) {
      const refused = await get(range);
      expect(refused.statusCode, range).toBe(416);
      expect(refused.headers['content-range'], range).toBe('bytes */5000');
      expect(refused.json<{ message: string }>().message, range).toMatch(/^Range: /);
    }

    // several ranges, another unit, nonsense or a reversed range: the header is ignored, the file answered whole
    for (const range of ['bytes=0-9,100-199', 'items=0-9', 'bytes=abc', 'bytes=20-10']) {
      const ignored = await get(range);
      expect(ignored.statusCode, range).toBe(200);
      expect(ignored.rawPayload.equals(bytes), range).toBe(true);
    }

    // the raw tracks seek the same way
    const tracks = await t.app.inject({ method: 'GET', url: `/api/console/recordings/${callId}/tracks`, headers: { cookie: supervisor, range: 'bytes=10-19' } });
    expect(tracks.statusCode).toBe(206);
    expect(tracks.headers['content-range']).toBe('bytes 10-19/4096');
    expect(tracks.rawPayload.length).toBe(10);
    // gone again: the other cases count the company's recordings
    expect((await t.app.inject({ method: 'DELETE', url: `/api/console/recordings/${callId}`, headers: { cookie: supervisor } })).statusCode).toBe(200);
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
