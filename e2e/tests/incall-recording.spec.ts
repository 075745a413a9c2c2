/**
 * Recording (issue 5, SPEC.md §7): with recordCalls on, every publisher (the guest, the agent, a shared
 * screen) is recorded under {root}/{companyId}/{callId}/{callId}_{username}_{guest|agent}[-screen]_{ts};
 * after the call the server makes one playable file per call and lists it to the company's supervisors
 * and admins only. ffprobe finds audio and video of non-zero duration in it; an admin deletes it in the
 * console and its files leave the disk.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { agentSignsIn, closeAll, screenshot } from '../support/journey.ts';
import { BASE_URL, DEMO_ADMIN, consoleLogin } from '../support/api.ts';
import { guestCallsAndAgentAnswers, launchPair } from './incall-support.ts';

interface Listing {
  recordings: { callId: string; size: number; url: string }[];
}

test('when a recorded call ends, then every publisher was recorded and the console lists one playable file', async ({}, testInfo) => {
  const { agent, guest } = await launchPair();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lobby-rec-'));
  try {
    const { callId, agentJid } = await guestCallsAndAgentAnswers(agent, guest);
    const [guestUsername] = callId.split('--');
    const agentNick = agentJid.split('@')[0] ?? '';

    // act: talk for a while, with the guest's screen shared for part of it, then the agent hangs up
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
        timeout: 60_000,
        intervals: [1000],
      })
      .toBe(true);
    const entry = (await listing()).data.recordings.find((r) => r.callId === callId);
    expect(entry?.size).toBeGreaterThan(10_000);

    // assert: the raw recordings have the SPEC's names, for every publisher
    const dataDir = process.env.LOBBY_DATA_DIR ?? 'data';
    const root = process.env.LOBBY_RECORDINGS_DIR || path.join(dataDir, 'recordings');
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

    // assert: the file downloads through the console and ffprobe finds audio and video with a duration
    const download = await fetch(`${BASE_URL}${entry?.url ?? ''}`, { headers: { cookie: adminCookie } });
    expect(download.status).toBe(200);
    const file = path.join(tmp, `${callId}.mkv`);
    fs.writeFileSync(file, Buffer.from(await download.arrayBuffer()));
    const probe = JSON.parse(
      execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file], {
        encoding: 'utf8',
      }),
    ) as { format: { duration?: string }; streams: { codec_type: string; codec_name: string }[] };
    await testInfo.attach('ffprobe', { body: JSON.stringify(probe, null, 2), contentType: 'application/json' });
    expect(Number(probe.format.duration)).toBeGreaterThan(1);
    const types = probe.streams.map((s) => s.codec_type);
    expect(types.filter((t) => t === 'audio').length).toBeGreaterThanOrEqual(2);
    expect(types.filter((t) => t === 'video').length).toBeGreaterThanOrEqual(3);
    for (const kind of ['audio', 'video']) {
      const decoded = execFileSync(
        'ffprobe',
        ['-v', 'error', '-select_streams', kind[0] ?? 'a', '-show_entries', 'stream=duration:format=duration', '-count_packets',
          '-show_entries', 'stream=nb_read_packets', '-of', 'csv=p=0', file],
        { encoding: 'utf8' },
      );
      expect(decoded.trim().split('\n').some((line) => Number(line.split(',').pop()) > 10), `${kind} packets`).toBe(true);
    }

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
