/**
 * Recordings with two server instances on one shared recordings root (docs/operations.md "Shared state:
 * jobs, limits and files"): however their sweeps meet, a conversation is mixed once ({callId}.mp4 written
 * by one instance), and a recording deleted by both at once is deleted and logged once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecordingsService } from '../../src/services/recordings/index.ts';
import type { Bins } from '../../src/services/recordings/postprocess.ts';
import { DEMO, createTestContext, dialects } from '../helpers/context.ts';
import type { TestContext } from '../helpers/context.ts';
import { bearer, openCall, registerGuest } from '../helpers/fixtures.ts';
import { fakeBins, fakeMjr } from '../helpers/recordings.ts';
import { secondInstance, type SecondInstance } from '../helpers/secondInstance.ts';

describe.each(dialects())('recordings across two instances (%s)', (dialect) => {
  let t: TestContext;
  let b: SecondInstance;
  let tmp: string;
  let bins: Bins;
  /** every output ffmpeg was asked to write, one line each */
  let ffmpegLog: string;
  const company = DEMO.companyId;

  beforeAll(async () => {
    t = await createTestContext(dialect);
    b = await secondInstance(t);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lobby-rec-two-'));
    const fake = fakeBins(path.join(tmp, 'bin'));
    ffmpegLog = path.join(tmp, 'ffmpeg.log');
    // the fake ffmpeg, logging each output it writes
    const counting = path.join(tmp, 'bin', 'counting-ffmpeg.cjs');
    fs.writeFileSync(
      counting,
      `#!/usr/bin/env node\nrequire('node:fs').appendFileSync(${JSON.stringify(ffmpegLog)}, process.argv[process.argv.length - 1] + '\\n');\nrequire(${JSON.stringify(fake.ffmpeg)});\n`,
      { mode: 0o755 },
    );
    bins = { ...fake, ffmpeg: counting };
  });
  afterAll(async () => {
    await b.close();
    await t.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const endedCall = async () => {
    const g = await registerGuest(t.app);
    const { callId } = await openCall(t.app, g);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/call-report/update-timestamp',
      headers: bearer(g.access_token),
      payload: { call_id: callId, call_ended_timestamp: true },
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return callId;
  };
  const mixesOf = (callId: string) =>
    (fs.existsSync(ffmpegLog) ? fs.readFileSync(ffmpegLog, 'utf8') : '').split('\n').filter((line) => line.endsWith(`${callId}.mp4.partial`));

  it('when both instances sweep one recorded conversation at once, then it is mixed once', async () => {
    const root = path.join(tmp, 'mix');
    const callId = await endedCall();
    fakeMjr(root, company, callId, 'guest', 'audio', Date.now() - 120_000);
    fakeMjr(root, company, callId, 'agent', 'video', Date.now() - 119_000);
    const a = createRecordingsService(t.app.services, { root, bins });
    const other = createRecordingsService(b.app.services, { root, bins });

    await Promise.all([a.sweep(), other.sweep()]);
    await Promise.all([other.sweep(), a.sweep()]);

    expect(mixesOf(callId)).toHaveLength(1);
    expect((await other.list(company)).map((r) => r.callId)).toEqual([callId]);
  });

  it('when both instances delete one recording at once, then it is deleted and logged once', async () => {
    const root = path.join(tmp, 'delete');
    const callId = await endedCall();
    fakeMjr(root, company, callId, 'guest', 'audio', Date.now() - 120_000);
    const a = createRecordingsService(t.app.services, { root, bins });
    const other = createRecordingsService(b.app.services, { root, bins });

    const removed = await Promise.all([
      a.purge(company, callId, { by: null, reason: 'retention' }),
      other.purge(company, callId, { by: null, reason: 'retention' }),
    ]);

    expect(removed.filter(Boolean)).toHaveLength(1);
    expect(fs.existsSync(path.join(root, String(company), callId))).toBe(false);
    const log = (await t.app.services.repos.recordingPrivacy.deletions(company)).filter((d) => d.callId === callId);
    expect(log).toHaveLength(1);
  });

  it('when a conversation is mixed, then the sweep prunes its claim row; a failed mix is remembered until its recording is deleted', async () => {
    const rowsOf = (callId: string) =>
      t.db.kysely.selectFrom('recording_mixes').select(['claimed_by', 'failed_newest']).where('origin_call_id', '=', callId).execute();
    const mixed = await endedCall();
    fakeMjr(path.join(tmp, 'prune-mixed'), company, mixed, 'guest', 'audio', Date.now() - 120_000);
    const failing = await endedCall();
    fakeMjr(path.join(tmp, 'prune-failing'), company, failing, 'guest', 'audio', Date.now() - 120_000);
    const a = createRecordingsService(t.app.services, { root: path.join(tmp, 'prune-mixed'), bins });
    // the other instance's ffmpeg fails on its conversation: the failure is kept so that nobody tries these files again
    const broken = createRecordingsService(b.app.services, { root: path.join(tmp, 'prune-failing'), bins: { ...bins, ffmpeg: '/bin/false' } });

    await broken.sweep();
    expect((await rowsOf(failing))[0]?.failed_newest).not.toBeNull();
    await a.sweep();

    expect(mixesOf(mixed)).toHaveLength(1);
    expect(await rowsOf(mixed)).toEqual([]);
    expect(await rowsOf(failing)).toHaveLength(1);
    await broken.sweep();
    expect(await rowsOf(failing)).toHaveLength(1);

    expect(await broken.purge(company, failing, { by: null, reason: 'retention' })).toBe(true);
    expect(await rowsOf(failing)).toEqual([]);
  });
});
