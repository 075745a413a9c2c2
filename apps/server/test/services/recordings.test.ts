/**
 * The recordings service's post-processing decisions: one recording per conversation (a call resumed
 * after hold spans several call ids, hence several folders), calls whose report never ends (the guest's
 * browser died) processed after the idle timeout and at start, deletion of every folder of a chain.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecordingsService } from '../../src/services/recordings/index.ts';
import type { Bins } from '../../src/services/recordings/postprocess.ts';
import { DEMO, createTestContext, dialects } from '../helpers/context.ts';
import type { TestContext } from '../helpers/context.ts';
import { bearer, openCall, registerGuest, type RegisteredGuest } from '../helpers/fixtures.ts';
import { fakeBins, fakeMjr } from '../helpers/recordings.ts';

describe.each(dialects())('recordings post-processing (%s)', (dialect) => {
  let t: TestContext;
  let tmp: string;
  let bins: Bins;
  const company = DEMO.companyId;

  const stamp = async (g: RegisteredGuest, callId: string, flag: string) => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/call-report/update-timestamp', headers: bearer(g.access_token), payload: { call_id: callId, [flag]: true } });
    if (res.statusCode >= 300) throw new Error(`stamp failed ${res.statusCode} ${res.body}`);
  };
  /** A call put on hold and resumed under a second call id; `ended`: the resumed part's report ended. */
  const heldChain = async (ended: boolean) => {
    const g = await registerGuest(t.app);
    const first = await openCall(t.app, g);
    const resumed = `${g.username}--resumed${Math.random().toString(36).slice(2, 8)}`;
    const hold = await t.app.inject({
      method: 'POST',
      url: '/api/call-report/hold-call',
      headers: bearer(g.access_token),
      payload: { origin_call_id: first.callId, current_call_id: first.callId, new_call_id: resumed },
    });
    if (hold.statusCode !== 201) throw new Error(`hold failed ${hold.statusCode} ${hold.body}`);
    if (ended) await stamp(g, resumed, 'call_ended_timestamp');
    return { guest: g, first: first.callId, resumed };
  };
  const service = (root: string, idleMs = 600_000) => createRecordingsService(t.app.services, { root, bins, idleMs });
  const output = (root: string, callId: string) => path.join(root, String(company), callId, `${callId}.mp4`);
  const tracksFile = (root: string, callId: string) => path.join(root, String(company), callId, `${callId}.tracks.mkv`);
  const muxed = (root: string, callId: string) => JSON.parse(fs.readFileSync(output(root, callId), 'utf8')) as Array<{ file: string; offset: number }>;

  beforeAll(async () => {
    t = await createTestContext(dialect);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lobby-rec-test-'));
    bins = fakeBins(path.join(tmp, 'bin'));
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('when a call was held and resumed under a new call id, then its recording is one file in the first call\u2019s folder with every part on one timeline', async () => {
    const root = path.join(tmp, 'chain');
    const { first, resumed } = await heldChain(true);
    const t0 = Date.now() - 120_000;
    fakeMjr(root, company, first, 'guest', 'audio', t0);
    fakeMjr(root, company, first, 'agent', 'video', t0 + 1000);
    fakeMjr(root, company, resumed, 'guest', 'audio', t0 + 60_000);
    fakeMjr(root, company, resumed, 'agent', 'video', t0 + 61_500);
    const recordings = service(root);

    await recordings.sweep();

    const inputs = muxed(root, first);
    expect(inputs).toHaveLength(4);
    expect(inputs.map((i) => i.offset).sort((a, b) => a - b)).toEqual([0, 1, 60, 61.5]);
    expect(inputs.filter((i) => i.file.startsWith(resumed))).toHaveLength(2);
    expect(fs.existsSync(output(root, resumed))).toBe(false);
    // the raw tracks, the secondary download, have the same timeline
    const raw = JSON.parse(fs.readFileSync(tracksFile(root, first), 'utf8')) as Array<{ offset: number }>;
    expect(raw.map((i) => i.offset).sort((a, b) => a - b)).toEqual([0, 1, 60, 61.5]);
    expect(await recordings.tracksOf(company, first)).toBe(tracksFile(root, first));
    expect((await recordings.list(company)).map((r) => r.callId)).toEqual([first]);
  });

  it('when a held call was not resumed yet and its files are fresh, then nothing is processed', async () => {
    const root = path.join(tmp, 'fresh');
    const { first } = await heldChain(false);
    fakeMjr(root, company, first, 'guest', 'audio', Date.now() - 20_000, 10_000);

    await service(root).sweep();

    expect(fs.existsSync(output(root, first))).toBe(false);
  });

  it('when a report never ended (the guest\u2019s browser died) and its files stayed unchanged past the idle timeout, then the recording is processed', async () => {
    const root = path.join(tmp, 'idle');
    const g = await registerGuest(t.app);
    const { callId } = await openCall(t.app, g);
    await stamp(g, callId, 'call_answered_timestamp');
    fakeMjr(root, company, callId, 'guest', 'audio', Date.now() - 300_000, 120_000);
    fakeMjr(root, company, callId, 'agent', 'audio', Date.now() - 299_000, 120_000);

    await service(root, 600_000).sweep();
    expect(fs.existsSync(output(root, callId)), 'before the timeout').toBe(false);

    await service(root, 60_000).sweep();
    expect(muxed(root, callId)).toHaveLength(2);
  });

  it('when the server starts with such calls left over, then they are processed without waiting for the first interval', async () => {
    const root = path.join(tmp, 'start');
    const g = await registerGuest(t.app);
    const { callId } = await openCall(t.app, g);
    fakeMjr(root, company, callId, 'guest', 'video', Date.now() - 900_000, 800_000);
    const recordings = service(root, 60_000);
    try {
      recordings.start(3_600_000);
      // the first interval is an hour away; the converters run at nice 19, so a busy machine's other
      // work goes first: 25 s (within the test's 30) is far from the hour and leaves them that room
      await expect.poll(() => fs.existsSync(output(root, callId)), { timeout: 25_000 }).toBe(true);
    } finally {
      recordings.stop();
    }
  });

  it('when a folder is under another company than its call\u2019s report, then it is never processed', async () => {
    const root = path.join(tmp, 'foreign');
    const g = await registerGuest(t.app);
    const { callId } = await openCall(t.app, g);
    await stamp(g, callId, 'call_ended_timestamp');
    const dir = path.dirname(fakeMjr(root, company + 1000, callId, 'guest', 'audio', Date.now() - 60_000));

    await service(root, 1).sweep();

    expect(fs.readdirSync(dir).some((n) => n.endsWith('.mp4') || n.endsWith('.mkv'))).toBe(false);
  });

  it('when a held call\u2019s recording is removed, then the folders of every call id of the conversation are gone', async () => {
    const root = path.join(tmp, 'remove');
    const { first, resumed } = await heldChain(true);
    fakeMjr(root, company, first, 'guest', 'audio', Date.now() - 100_000);
    fakeMjr(root, company, resumed, 'guest', 'audio', Date.now() - 50_000);
    const recordings = service(root);
    await recordings.sweep();
    expect(fs.existsSync(output(root, first))).toBe(true);

    expect(await recordings.remove(company + 1, first, { by: null, reason: 'manual' }), 'another company').toBe(false);
    expect(await recordings.remove(company, first, { by: null, reason: 'manual' })).toBe(true);

    expect(fs.existsSync(path.join(root, String(company), first))).toBe(false);
    expect(fs.existsSync(path.join(root, String(company), resumed))).toBe(false);
    expect(await recordings.list(company)).toEqual([]);
    await recordings.sweep();
    expect(fs.existsSync(output(root, first)), 'not made again').toBe(false);
  });

  it('when a call has less than a second of media (cancelled as it was answered), then no recording is made or listed', async () => {
    const root = path.join(tmp, 'short');
    const g = await registerGuest(t.app);
    const { callId } = await openCall(t.app, g);
    await stamp(g, callId, 'call_ended_timestamp');
    fakeMjr(root, company, callId, 'guest', 'audio', Date.now() - 60_000, 60_000, 0.08);
    fakeMjr(root, company, callId, 'guest', 'video', Date.now() - 60_000, 60_000, 0.05);
    const recordings = service(root);

    await recordings.sweep();

    expect(fs.existsSync(output(root, callId))).toBe(false);
    expect(await recordings.list(company)).toEqual([]);
  });
});
