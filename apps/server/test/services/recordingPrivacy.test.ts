/**
 * Recording consent and retention (GDPR; docs/security.md "Recording consent"): the guest's acknowledgement
 * of the recording notice is stored with the call and the server starts no recording without it; a company's
 * recordingRetentionDays (validated) makes the retention job delete older recordings, moved by a fake
 * clock; every deletion (by hand or by retention) is logged with who and when, readable by admins.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaRooms } from '../../src/services/media/mediaRooms.ts';
import { recordingsRoot } from '../../src/services/recordings/index.ts';
import { createRecordingsService } from '../../src/services/recordings/index.ts';
import { createRetentionJob } from '../../src/services/recordings/retention.ts';
import { DEMO, createTestContext, dialects } from '../helpers/context.ts';
import type { TestContext } from '../helpers/context.ts';
import { login, openCall, registerGuest, resumeAfterHold } from '../helpers/fixtures.ts';

const DAY = 86_400_000;

/** A media-rooms stand-in that notes whether each agent grant asked to record. */
function notingRooms() {
  const agentGrants: { callId: string; record: boolean }[] = [];
  const grant = { room: 'r', pin: 'p', token: 't', expires_in: 60 };
  const rooms: MediaRooms = {
    grantGuest: () => Promise.resolve(grant),
    grantAgent: (input) => {
      agentGrants.push({ callId: input.callId, record: input.record });
      return Promise.resolve(grant);
    },
    startRecording: () => Promise.resolve(),
    recordArmed: () => Promise.resolve(false),
    secretOf: () => Promise.resolve(null),
    nodeOf: () => Promise.resolve(null),
    end: () => Promise.resolve(),
    sweepStale: () => Promise.resolve(),
  };
  return { rooms, agentGrants };
}

describe.each(dialects())('recording consent, retention and the deletion log (%s)', (dialect) => {
  let t: TestContext;
  let admin: string;
  let agent: string;
  const noted = notingRooms();
  let root: string;

  /** A processed recording of a new call, its report made at the fake clock's now. */
  const recordedCall = async () => {
    const { callId } = await openCall(t.app, await registerGuest(t.app), { recording_acknowledged: true });
    const dir = path.join(root, String(DEMO.companyId), callId);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${callId}.mp4`), Buffer.alloc(1024, 1));
    return callId;
  };
  const setRetention = (days: unknown) =>
    t.app.inject({ method: 'PUT', url: '/api/admin/company', headers: { cookie: admin }, payload: { recordingRetentionDays: days } });
  /** The clock jumps days ahead (sessions last 12 h): log in again at the new time. */
  const relogin = async () => {
    admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
  };
  const deletions = async (cookie = admin) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/console/recordings/deletions', headers: { cookie } });
    return { status: res.statusCode, list: res.statusCode === 200 ? res.json<{ data: { deletions: Array<{ callId: string; deletedAt: number; deletedBy: { id: number | null; name: string | null } | null; reason: string }> } }>().data.deletions : [] };
  };

  beforeAll(async () => {
    t = await createTestContext(dialect, { deps: { mediaRooms: noted.rooms } });
    root = recordingsRoot(t.config);
    admin = await login(t.app, DEMO.adminEmail, DEMO.adminPassword);
    agent = await login(t.app, DEMO.agentEmail, DEMO.agentPassword);
  });
  afterAll(async () => t.close());

  it('when the guest acknowledged the notice, then its time is stored with the call and the answering agent\u2019s grant records', async () => {
    const { callId } = await openCall(t.app, await registerGuest(t.app), { recording_acknowledged: true });
    const row = await t.db.kysely.selectFrom('call_reports').selectAll().where('call_id', '=', callId).executeTakeFirstOrThrow();
    expect(Number((row as unknown as { recording_consent_at: number }).recording_consent_at)).toBe(t.clock.now);

    const res = await t.app.inject({ method: 'POST', url: `/api/console/calls/${callId}/media`, headers: { cookie: agent } });
    expect(res.statusCode, res.body).toBe(200);
    expect(noted.agentGrants.find((g) => g.callId === callId)?.record).toBe(true);
  });

  it('when the guest did not acknowledge it, then the company records but this call is not recorded', async () => {
    const { callId } = await openCall(t.app, await registerGuest(t.app));
    const res = await t.app.inject({ method: 'POST', url: `/api/console/calls/${callId}/media`, headers: { cookie: agent } });
    expect(res.statusCode, res.body).toBe(200);
    expect(noted.agentGrants.find((g) => g.callId === callId)?.record).toBe(false);
  });

  it('when a consenting guest\u2019s call is held and resumed, then the resumed call is recorded under the same consent', async () => {
    const guest = await registerGuest(t.app);
    const first = await openCall(t.app, guest, { recording_acknowledged: true });
    const resumed = await resumeAfterHold(t.app, guest, first.callId);
    await t.app.inject({ method: 'POST', url: `/api/console/calls/${resumed}/media`, headers: { cookie: agent } });
    expect(noted.agentGrants.find((g) => g.callId === resumed)?.record).toBe(true);
  });

  it('when the retention is out of bounds or not a number, then 400 names recordingRetentionDays; within, it is stored', async () => {
    for (const bad of [-1, 3651, 1.5, 'ten']) {
      const res = await setRetention(bad);
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json<{ message: string }>().message).toContain('recordingRetentionDays');
    }
    expect((await setRetention(30)).statusCode).toBe(200);
    const company = await t.app.inject({ method: 'GET', url: '/api/admin/company', headers: { cookie: admin } });
    expect(company.json<{ data: { recordingRetentionDays: number } }>().data.recordingRetentionDays).toBe(30);
  });

  it('when the clock passes a recording\u2019s retention, then the job deletes it and logs it as the retention\u2019s; younger ones stay', async () => {
    const recordings = createRecordingsService(t.app.services, { root });
    const job = createRetentionJob(t.app.services, recordings, { now: () => t.clock.now });
    expect((await setRetention(30)).statusCode).toBe(200);
    const old = await recordedCall();
    t.clock.now += 20 * DAY;
    await relogin();
    const young = await recordedCall();

    t.clock.now += 9 * DAY; // old: 29 days
    expect(await job.runOnce()).toEqual([]);

    t.clock.now += 1 * DAY + 1; // old: just past 30 days; young: 10 days
    expect(await job.runOnce()).toEqual([old]);
    await relogin();
    expect(fs.existsSync(path.join(root, String(DEMO.companyId), old))).toBe(false);
    expect((await recordings.list(DEMO.companyId)).map((r) => r.callId)).toContain(young);
    const [logged] = (await deletions()).list;
    expect(logged).toEqual({ callId: old, deletedAt: t.clock.now, deletedBy: null, reason: 'retention' });

    // 0 keeps everything, however old
    expect((await setRetention(0)).statusCode).toBe(200);
    t.clock.now += 365 * DAY;
    expect(await job.runOnce()).toEqual([]);
    await relogin();
    expect(fs.existsSync(path.join(root, String(DEMO.companyId), young))).toBe(true);
  });

  it('when a conversation past its retention was never mixed, then its raw files of every call id go and are logged; a call in progress stays', async () => {
    const recordings = createRecordingsService(t.app.services, { root });
    const job = createRetentionJob(t.app.services, recordings, { now: () => t.clock.now });
    expect((await setRetention(30)).statusCode).toBe(200);
    /** Janus's raw files only (no mix: under a second of media, a failed mix, or never ended) */
    const raw = (callId: string, names: string[]) => {
      const dir = path.join(root, String(DEMO.companyId), callId);
      fs.mkdirSync(dir, { recursive: true });
      for (const name of names) fs.writeFileSync(path.join(dir, name), Buffer.alloc(512, 1));
      return dir;
    };
    const guest = await registerGuest(t.app);
    const { callId: held } = await openCall(t.app, guest, { recording_acknowledged: true });
    const heldDir = raw(held, [`${held}-guest-audio.mjr`, `${held}-agent-video.mjr`, `${held}.tracks.mkv`]);
    const resumed = await resumeAfterHold(t.app, guest, held);
    const resumedDir = raw(resumed, [`${resumed}-guest-audio.mjr`]);

    t.clock.now += 29 * DAY;
    await relogin();
    // a call still in progress: opened a day before the sweep, never ended, Janus still writing
    const { callId: live } = await openCall(t.app, await registerGuest(t.app), { recording_acknowledged: true });
    const liveDir = raw(live, [`${live}-guest-audio.mjr`]);
    expect(await recordings.list(DEMO.companyId).then((l) => l.map((r) => r.callId))).not.toContain(held);

    t.clock.now += 1 * DAY + 1; // held: just past 30 days; live: a day
    // (the earlier test's recording, kept while retention was 0, is long past 30 days and goes too)
    const swept = await job.runOnce();
    expect(swept).toContain(held);
    expect(swept).not.toContain(live);
    expect(swept).not.toContain(resumed); // the conversation is deleted and logged once, as its first call
    expect(fs.existsSync(heldDir)).toBe(false);
    expect(fs.existsSync(resumedDir)).toBe(false);
    expect(fs.readdirSync(liveDir)).toEqual([`${live}-guest-audio.mjr`]);
    await relogin();
    const logged = (await deletions()).list.filter((d) => d.callId === held);
    expect(logged).toEqual([{ callId: held, deletedAt: t.clock.now, deletedBy: null, reason: 'retention' }]);

    // the next sweep has nothing more to delete: the live call is kept until its own retention
    expect(await job.runOnce()).toEqual([]);
    expect(fs.existsSync(liveDir)).toBe(true);
    expect((await setRetention(0)).statusCode).toBe(200);
  });

  it('when an admin deletes a recording by hand, then the log names the admin and the time; agents may not read the log', async () => {
    const callId = await recordedCall();
    t.clock.now += 1000;
    const res = await t.app.inject({ method: 'DELETE', url: `/api/console/recordings/${callId}`, headers: { cookie: admin } });
    expect(res.statusCode, res.body).toBe(200);
    const [logged] = (await deletions()).list;
    expect(logged?.callId).toBe(callId);
    expect(logged?.reason).toBe('manual');
    expect(logged?.deletedAt).toBe(t.clock.now);
    const user = await t.db.kysely.selectFrom('users').select(['id', 'name']).where('email', '=', DEMO.adminEmail).executeTakeFirstOrThrow();
    expect(logged?.deletedBy).toEqual({ id: Number(user.id), name: user.name });
    expect((await deletions(agent)).status).toBe(403);
  });
});
