/**
 * Recording (docs/protocol.md): with recordCalls on, every publisher (the guest, the agent, a shared
 * screen) is recorded under {root}/{companyId}/{callId}/{callId}_{username}_{guest|agent}[-screen]_{ts};
 * after the call the server makes one playable file per call and lists it to the company's supervisors
 * and admins only. The file is the whole conversation: ffprobe finds ONE video and ONE
 * audio stream (H.264/AAC in MP4) lasting the call, and the guest's fake microphone is heard in it while
 * the agent is muted; the raw tracks download beside it. An admin deletes it in the console and its
 * files leave the disk.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { agentSignsIn, closeAll, screenshot } from '../support/journey.ts';
import { BASE_URL, DEMO_ADMIN, consoleLogin } from '../support/api.ts';
import { queryRows } from '../support/db.ts';
import { guestCallsAndAgentAnswers, launchPair } from './incall-support.ts';

interface Listing {
  recordings: { callId: string; size: number; url: string }[];
}

const recordingsRoot = () => process.env.LOBBY_RECORDINGS_DIR || path.join(process.env.LOBBY_DATA_DIR ?? 'data', 'recordings');
const listRecordings = async (cookie: string) => {
  const response = await fetch(`${BASE_URL}/api/console/recordings`, { headers: { cookie } });
  return ((await response.json()) as { data: Listing }).data.recordings;
};

test('when a recorded call ends, then every publisher was recorded and the console lists one playable file', async ({}, testInfo) => {
  // a call of half a minute, then its mix (H.264 encoding) on a machine that the stack shares
  test.setTimeout(300_000);
  // the agent's microphone is silence, the guest's Chromium's fake beep: whatever is heard in the mix is
  // the guest (and the raw tracks prove the agent's track silent, so the measure can tell)
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lobby-rec-'));
  const silence = path.join(tmp, 'silence.wav');
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=mono', '-t', '120', silence]);
  const agent = await launchParticipant('agent', { extraArgs: [`--use-file-for-fake-audio-capture=${silence}`] });
  const guest = await launchParticipant('guest', { viewport: { width: 1024, height: 768 } });
  try {
    const { callId, agentJid } = await guestCallsAndAgentAnswers(agent, guest);
    const [guestUsername] = callId.split('--');
    const agentNick = agentJid.split('@')[0] ?? '';

    // act: they talk for a while, with the guest's screen shared for part of it, then the agent hangs up
    await guest.page.waitForTimeout(3000);
    await guest.page.getByTestId('screen-share-button').click();
    await expect(guest.page.getByTestId('screen-share-button')).toHaveAttribute('data-sharing', 'true');
    await expect(agent.page.getByTestId('remote-screen')).toHaveAttribute('data-has-video', 'true');
    await guest.page.waitForTimeout(3000);
    await guest.page.getByTestId('screen-share-button').click();
    await guest.page.waitForTimeout(1000);
    await agent.page.getByTestId('agent-hangup-button').click();
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();

    // assert: the company's supervisors and admins get the call's recording once it is processed
    const adminCookie = await consoleLogin(DEMO_ADMIN);
    const listing = async () => {
      const response = await fetch(`${BASE_URL}/api/console/recordings`, { headers: { cookie: adminCookie } });
      return (await response.json()) as { data: Listing };
    };
    await expect
      .poll(async () => (await listing()).data.recordings.some((r) => r.callId === callId), {
        message: 'the call appears in the recordings list',
        timeout: 150_000,
        intervals: [1000],
      })
      .toBe(true);
    const entry = (await listing()).data.recordings.find((r) => r.callId === callId);
    expect(entry?.size).toBeGreaterThan(10_000);

    // assert: the raw recordings have the documented names, for every publisher
    const root = recordingsRoot();
    const names = fs.readdirSync(path.join(root, '18', callId));
    const stamp = '\\d{10,}';
    const shapes = [
      new RegExp(`^${callId}_${guestUsername}_guest_${stamp}-audio-\\d+\\.mjr$`),
      new RegExp(`^${callId}_${guestUsername}_guest_${stamp}-video-\\d+\\.mjr$`),
      new RegExp(`^${callId}_${guestUsername}_guest-screen_${stamp}-video-\\d+\\.mjr$`),
      new RegExp(`^${callId}_${agentNick}_agent_${stamp}-audio-\\d+\\.mjr$`),
      new RegExp(`^${callId}_${agentNick}_agent_${stamp}-video-\\d+\\.mjr$`),
    ];
    for (const shape of shapes) expect(names.some((n) => shape.test(n)), `a file like ${shape}`).toBe(true);

    // assert: the file downloads through the console: ONE video and ONE audio stream, MP4 H.264/AAC,
    // lasting the call (the server's answered → ended, within a second)
    const download = await fetch(`${BASE_URL}${entry?.url ?? ''}`, { headers: { cookie: adminCookie } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('video/mp4');
    const file = path.join(tmp, `${callId}.mp4`);
    fs.writeFileSync(file, Buffer.from(await download.arrayBuffer()));
    const probe = JSON.parse(
      execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file], {
        encoding: 'utf8',
      }),
    ) as { format: { duration?: string; format_name?: string }; streams: { codec_type: string; codec_name: string }[] };
    await testInfo.attach('ffprobe', { body: JSON.stringify(probe, null, 2), contentType: 'application/json' });
    expect(probe.streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort()).toEqual(['audio:aac', 'video:h264']);
    expect(probe.format.format_name).toContain('mp4');
    const details = await fetch(`${BASE_URL}/api/console/calls/${encodeURIComponent(callId)}`, { headers: { cookie: adminCookie } });
    const call = ((await details.json()) as { data: { answeredAt: string | null; endedAt: string | null } }).data;
    const callSeconds = (Date.parse(call.endedAt ?? '') - Date.parse(call.answeredAt ?? '')) / 1000;
    await testInfo.attach('durations', { body: JSON.stringify({ callSeconds, file: probe.format.duration }), contentType: 'application/json' });
    expect(Math.abs(Number(probe.format.duration) - callSeconds)).toBeLessThanOrEqual(1);

    // assert: the guest is heard in the mix (its fake microphone beeps; the agent's sends silence)
    const maxVolume = (input: string, stream: string, from: number, to: number) => {
      // volumedetect reports on stderr
      const run = spawnSync('ffmpeg', ['-hide_banner', '-i', input, '-map', stream, '-af', `atrim=${from.toFixed(2)}:${to.toFixed(2)},volumedetect`, '-f', 'null', '-'], { encoding: 'utf8' });
      return Number(/max_volume: (-?[\d.]+) dB/.exec(run.stderr)?.[1] ?? 'NaN');
    };
    const end = Number(probe.format.duration);
    const mixed = maxVolume(file, '0:a:0', 2, end - 1);
    expect(mixed, 'the mix while the guest\u2019s microphone plays (max dB)').toBeGreaterThan(-30);

    // assert: the raw tracks (every publisher apart) download beside it
    const tracks = await fetch(`${BASE_URL}/api/console/recordings/${encodeURIComponent(callId)}/tracks`, { headers: { cookie: adminCookie } });
    expect(tracks.status).toBe(200);
    const tracksFile = path.join(tmp, `${callId}.tracks.mkv`);
    fs.writeFileSync(tracksFile, Buffer.from(await tracks.arrayBuffer()));
    const rawTypes = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type', '-of', 'csv=p=0', tracksFile], { encoding: 'utf8' }).trim().split('\n');
    expect(rawTypes.filter((t) => t === 'audio').length).toBeGreaterThanOrEqual(2);
    expect(rawTypes.filter((t) => t === 'video').length).toBeGreaterThanOrEqual(3);
    // …where the agent's own audio is silence and the guest's is not: the sound of the mix is the guest's
    const rawLevels = [0, 1].map((n) => maxVolume(tracksFile, `0:a:${n}`, 2, end - 1)).sort((x, y) => x - y);
    await testInfo.attach('levels', { body: JSON.stringify({ mixed, rawLevels }), contentType: 'application/json' });
    expect(rawLevels[0], 'the agent\u2019s silent microphone (max dB)').toBeLessThan(-50);
    expect(rawLevels[1], 'the guest\u2019s beep (max dB)').toBeGreaterThan(-30);

    // assert: nobody outside the company's console gets it, and its agents neither (docs/api.md): the
    // console has no recordings page for them and the API answers 403
    const anonymous = await fetch(`${BASE_URL}/api/console/recordings`);
    expect(anonymous.status).toBe(401);
    const anonymousFile = await fetch(`${BASE_URL}${entry?.url ?? ''}`);
    expect(anonymousFile.status).toBe(401);
    const asAgent = await agent.page.evaluate(async (url) => {
      const statuses = [];
      for (const [u, method] of [['/api/console/recordings', 'GET'], [url, 'GET'], [url.replace(/\/file$/, ''), 'DELETE']]) {
        statuses.push((await fetch(u ?? '', { method })).status);
      }
      return statuses;
    }, entry?.url ?? '');
    expect(asAgent).toEqual([403, 403, 403]);
    await agent.page.goto('/console/recordings');
    await expect(agent.page.locator('[data-screen="workspace"]')).toBeVisible();
    await expect(agent.page.getByTestId('recording-row')).toHaveCount(0);

    // act: an admin deletes the recording in the console
    const admin = await launchParticipant('admin', { viewport: { width: 1280, height: 900 } });
    try {
      await agentSignsIn(admin.page, DEMO_ADMIN);
      await admin.page.goto('/console/recordings');
      const row = admin.page.locator(`[data-testid="recording-row"][data-call-id="${callId}"]`);
      await expect(row).toBeVisible();
      // the row names the guest as the queue did, the agent who answered, the talk time and the rating
      await expect(row.getByTestId('recording-guest')).toHaveText(`Guest ${guestUsername!.slice(-4).toUpperCase()}`);
      await expect(row.getByTestId('recording-agent')).toHaveText('Demo Agent');
      await expect(row.getByTestId('recording-duration')).toHaveText(/^\d+(\.\d)? s$/);
      await screenshot(admin.page, testInfo, 'recordings-admin');
      admin.page.once('dialog', (dialog) => void dialog.accept());
      await row.getByTestId('recording-delete').click();
      await expect(row).toHaveCount(0);
    } finally {
      await closeAll(testInfo, admin);
    }

    // assert: the files are gone from disk and from the list
    expect(fs.existsSync(path.join(root, '18', callId))).toBe(false);
    expect((await listing()).data.recordings.some((r) => r.callId === callId)).toBe(false);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
    await closeAll(testInfo, agent, guest);
  }
});

test('when a guest waits and cancels before anyone answers, then nothing is recorded; once answered, the guest is recorded from the answer on', async ({}, testInfo) => {
  test.setTimeout(180_000);
  const { agent, guest } = await launchPair();
  try {
    await agentSignsIn(agent.page);
    const adminCookie = await consoleLogin(DEMO_ADMIN);

    // act: the guest calls and waits (published in its room, nobody answering), then cancels
    await guest.page.goto('/');
    await guest.page.getByTestId('assignment-option').filter({ hasText: 'Sales' }).click();
    await guest.page.locator('[data-testid="call-button"][data-call-kind="video"]').click();
    const item = agent.page.getByTestId('queue-item');
    await expect(item).toHaveCount(1);
    const cancelled = (await item.getAttribute('data-call-id')) ?? '';
    await guest.page.waitForTimeout(3000);
    const folder = path.join(recordingsRoot(), '18', cancelled);
    const rawFiles = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.mjr')) : []);
    expect(rawFiles(folder), 'nothing recorded while the guest waits').toEqual([]);
    await guest.page.getByTestId('cancel-button').click();
    await expect(item).toHaveCount(0);

    // assert: no raw file, and no recording listed (a sweep runs on every listing)
    expect(rawFiles(folder)).toEqual([]);
    expect((await listRecordings(adminCookie)).some((r) => r.callId === cancelled)).toBe(false);

    // act: the guest calls again and waits; then the agent answers
    await guest.page.goto('/');
    await guest.page.getByTestId('assignment-option').filter({ hasText: 'Sales' }).click();
    await guest.page.locator('[data-testid="call-button"][data-call-kind="video"]').click();
    await expect(item).toHaveCount(1);
    const callId = (await item.getAttribute('data-call-id')) ?? '';
    await guest.page.waitForTimeout(3000);
    const answeredAfter = Date.now() * 1000; // µs, as Janus writes its headers
    await item.getByTestId('answer-button').click();
    await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
    const answered = path.join(recordingsRoot(), '18', callId);
    await expect.poll(() => rawFiles(answered).filter((n) => n.includes('_guest_')).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);

    // assert: the guest is recorded from the answer on — after the agent's click, and not while the
    // agent's browser was still setting up its camera (the guest's screen still said "waiting"): no raw
    // file of the guest starts before the agent's own (janus-pp-rec -j reads a file's header)
    await expect.poll(() => rawFiles(answered).filter((n) => n.includes('_agent_')).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    // Janus creates a file at once and writes its header with the first packet: read it once it is there.
    const header = (name: string) => {
      try {
        return execFileSync('janus-pp-rec', ['-j', path.join(answered, name)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
      } catch {
        return ''; // no header yet
      }
    };
    await expect.poll(() => rawFiles(answered).every((name) => header(name) !== ''), { timeout: 30_000 }).toBe(true);
    const created = (name: string) => (JSON.parse(header(name)) as { s: number }).s;
    const agentStart = Math.min(...rawFiles(answered).filter((n) => n.includes('_agent_')).map(created));
    for (const name of rawFiles(answered).filter((n) => n.includes('_guest_'))) {
      expect(created(name), `${name} created after the answer`).toBeGreaterThanOrEqual(answeredAfter);
      expect(created(name), `${name} not before the agent publishes (µs)`).toBeGreaterThanOrEqual(agentStart - 500_000);
    }
    // assert: the guest's acknowledgement of the recording notice was stored with the call before any
    // media was recorded (consent first: docs/security.md "Recording consent")
    const [consent] = await queryRows<{ recording_consent_at: number | null }>('select recording_consent_at from call_reports where call_id = ?', [callId]);
    const consentAt = Number(consent?.recording_consent_at ?? 0);
    expect(consentAt, 'the consent is stored').toBeGreaterThan(0);
    const firstFile = Math.min(...rawFiles(answered).map(created)); // µs
    expect(consentAt * 1000, 'the consent is older than the first recorded file').toBeLessThan(firstFile);
    await agent.page.getByTestId('agent-hangup-button').click();
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});
