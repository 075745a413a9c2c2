/**
 * A recorded call's recording after its media session was lost and made again (a Janus restarted, or a
 * call moved to another Janus node): each publisher's parts in the call's folder, and a mix that lasts
 * the call with sound at its end (docs/operations.md "Recordings"; recordings/postprocess.ts mixes the
 * parts in order).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, type TestInfo } from '@playwright/test';
import { BASE_URL, DEMO_ADMIN, consoleLogin } from './api.ts';

/** The demo company's id: its recordings are in {recordings root}/18/{callId}. */
const DEMO_COMPANY_ID = 18;

/**
 * Asserts that the ended call's recording is listed, that the guest's and the agent's video each came in
 * `parts` parts or more, and that the downloaded mix lasts the call (±1.5 s) with sound in its last
 * seconds (the fake microphones' beeps, after the session was made again).
 */
export async function expectRecordingCoversCall(
  testInfo: TestInfo,
  call: { callId: string; agentJid: string },
  parts = 2,
): Promise<{ callSeconds: number; mixSeconds: number; url: string; adminCookie: string }> {
  const { callId, agentJid } = call;
  const [guestUsername] = callId.split('--');
  const adminCookie = await consoleLogin(DEMO_ADMIN);
  const listed = async () => {
    const response = await fetch(`${BASE_URL}/api/console/recordings`, { headers: { cookie: adminCookie } });
    const body = (await response.json()) as { data: { recordings: { callId: string; url: string }[] } };
    return body.data.recordings.find((r) => r.callId === callId);
  };
  let url = '';
  await expect
    .poll(async () => (url = (await listed())?.url ?? ''), {
      message: 'the call appears in the recordings list',
      timeout: 150_000,
      intervals: [1000],
    })
    .not.toBe('');
  const root = process.env.LOBBY_RECORDINGS_DIR || path.join(process.env.LOBBY_DATA_DIR ?? 'data', 'recordings');
  const names = fs.readdirSync(path.join(root, String(DEMO_COMPANY_ID), callId));
  const partsOf = (who: string) =>
    new Set(
      names
        .filter((n) => n.startsWith(`${callId}_${who}_`) && /-video-\d+\.mjr$/.test(n))
        .map((n) => /_(\d+)-video/.exec(n)?.[1]),
    );
  expect(partsOf(`${guestUsername}_guest`).size, `the guest's video parts in ${names.join(', ')}`).toBeGreaterThanOrEqual(parts);
  expect(partsOf(`${agentJid.split('@')[0]}_agent`).size, `the agent's video parts in ${names.join(', ')}`).toBeGreaterThanOrEqual(parts);

  const download = await fetch(`${BASE_URL}${url}`, { headers: { cookie: adminCookie } });
  expect(download.status).toBe(200);
  expect(download.headers.get('content-type'), `the download of ${url}`).toContain('video/mp4');
  // still listed once downloaded (nothing re-made or deleted it meanwhile)
  expect((await listed())?.url, 'the recording, listed again after its download').toBe(url);
  const file = path.join(testInfo.outputDir, `${callId}.mp4`);
  fs.mkdirSync(testInfo.outputDir, { recursive: true });
  fs.writeFileSync(file, Buffer.from(await download.arrayBuffer()));
  const mixSeconds = Number(
    execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], { encoding: 'utf8' }).trim(),
  );
  const details = await fetch(`${BASE_URL}/api/console/calls/${encodeURIComponent(callId)}`, { headers: { cookie: adminCookie } });
  const answered = ((await details.json()) as { data: { answeredAt: string | null; endedAt: string | null } }).data;
  const callSeconds = (Date.parse(answered.endedAt ?? '') - Date.parse(answered.answeredAt ?? '')) / 1000;
  await testInfo.attach('durations', { body: JSON.stringify({ callSeconds, file: mixSeconds }), contentType: 'application/json' });
  expect(Math.abs(mixSeconds - callSeconds), 'the mix lasts the call (s)').toBeLessThanOrEqual(1.5);
  const run = spawnSync(
    'ffmpeg',
    ['-hide_banner', '-i', file, '-map', '0:a:0', '-af', `atrim=${(mixSeconds - 3.5).toFixed(2)}:${(mixSeconds - 0.5).toFixed(2)},volumedetect`, '-f', 'null', '-'],
    { encoding: 'utf8' },
  );
  expect(Number(/max_volume: (-?[\d.]+) dB/.exec(run.stderr)?.[1] ?? 'NaN'), 'sound at the end of the mix (max dB)').toBeGreaterThan(-30);
  return { callSeconds, mixSeconds, url, adminCookie };
}
