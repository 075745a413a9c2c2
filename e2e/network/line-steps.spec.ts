/**
 * Sound first on a bad line (docs/protocol.md "Line steps"): a video call on a clean line, then the guest's
 * line shaped to 300 kbit/s in both directions (scripts/lib/netns.sh), then clean again. The guest's video
 * steps down and pauses, the audio keeps arriving on both sides without a gap over a second once it did,
 * both sides are told (the guest of its own line, the agent of the guest's), and the video comes back
 * within 10 s of the line's recovery, the notices gone. The times go to docs/performance.md.
 */
import { expect, test, type Page } from '@playwright/test';
import type { LaunchedBrowser } from '../support/browser.ts';
import { closeAll, screenshot } from '../support/journey.ts';
import { mediaCounters } from '../support/media.ts';
import { guestCallsAndAgentAnswers } from '../tests/incall-support.ts';
import { guestFirewall, launchIn, shapeGuestLine, unshapeGuestLine } from './net.ts';

/** Starts (or restarts) a page's record of the longest wait between two inbound audio packets. */
async function watchAudioGaps(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __audioGap?: { stop: () => void; longest: number; last: number; packets: number } };
    w.__audioGap?.stop();
    const gap = { longest: 0, last: performance.now(), packets: -1, stop: () => clearInterval(timer) };
    const timer = setInterval(() => {
      const pcs = ((window as unknown as { __lobbyPeerConnections?: RTCPeerConnection[] }).__lobbyPeerConnections ?? []).filter((pc) => pc.connectionState !== 'closed');
      void Promise.all(pcs.map((pc) => pc.getStats())).then((reports) => {
        let packets = 0;
        for (const report of reports)
          report.forEach((s: Record<string, unknown>) => {
            if (s.type === 'inbound-rtp' && s.kind === 'audio') packets += Number(s.packetsReceived ?? 0);
          });
        const now = performance.now();
        if (packets > gap.packets) {
          if (gap.packets >= 0) gap.longest = Math.max(gap.longest, now - gap.last);
          gap.packets = packets;
          gap.last = now;
        }
      });
    }, 100);
    w.__audioGap = gap;
  });
}

/** The longest gap so far, the one still open included, in ms; and the audio packets received. */
function audioGap(page: Page): Promise<{ longest: number; packets: number }> {
  return page.evaluate(() => {
    const gap = (window as unknown as { __audioGap: { longest: number; last: number; packets: number } }).__audioGap;
    return { longest: Math.round(Math.max(gap.longest, performance.now() - gap.last)), packets: gap.packets };
  });
}

// Known to fail, and the apps do not turn line steps on yet (GuestCallOptions/AgentDeskOptions `lineSteps`):
// at audioOnly a 300 kbit/s line looks clean, the guest steps back up to reduced, and that costs the agent
// about a second of the guest's audio (1,021 ms against 1,000 ms at best); the recovery was never reached.
test.fixme('when the guest line falls to 300 kbit/s, then its video pauses to keep the sound, both sides are told, and the video comes back when the line recovers', async ({}, testInfo) => {
  test.setTimeout(240_000);
  await guestFirewall('open');
  await unshapeGuestLine();
  let agent: LaunchedBrowser | undefined;
  let guest: LaunchedBrowser | undefined;
  try {
    agent = await launchIn('agent', 'steps-agent');
    guest = await launchIn('guest', 'steps-guest');
    await guestCallsAndAgentAnswers(agent, guest, 'video');
    const { page: g } = guest;
    const { page: a } = agent;

    // a clean line: the guest's video reaches the agent, and no notice
    const decoded = async (page: Page) => (await mediaCounters(page)).videoFramesDecoded;
    const before = await decoded(a);
    await expect.poll(() => decoded(a), { message: "the guest's video at the agent", timeout: 20_000 }).toBeGreaterThan(before + 30);
    await expect(g.getByTestId('line-notice')).toHaveCount(0);

    // the line falls to 300 kbit/s
    await shapeGuestLine('300kbit');
    const degradedAt = Date.now();
    await expect(g.getByTestId('line-notice')).toHaveAttribute('data-notice', 'ownPaused', { timeout: 45_000 });
    const toAudioOnlyMs = Date.now() - degradedAt;
    await expect(a.getByTestId('agent-line-notice')).toHaveAttribute('data-notice', 'call.lineGuestPaused', { timeout: 10_000 });
    const agentToldMs = Date.now() - degradedAt;
    // the guest's encoder sends nothing: its frames stop
    const encoded = (await mediaCounters(g)).videoFramesEncoded;
    await g.waitForTimeout(1500);
    expect((await mediaCounters(g)).videoFramesEncoded, "the guest's video encoder paused").toBeLessThanOrEqual(encoded + 2);

    // each side's notice, as a person sees it: the guest on a phone, the agent on a laptop
    await g.setViewportSize({ width: 390, height: 844 });
    await a.setViewportSize({ width: 1366, height: 800 });
    await screenshot(g, testInfo, 'line-steps-guest-paused-phone');
    await screenshot(a, testInfo, 'line-steps-agent-guest-paused-laptop');

    // the audio keeps arriving on both sides: no gap over a second for 12 s of the bad line
    await watchAudioGaps(g);
    await watchAudioGaps(a);
    await g.waitForTimeout(12_000);
    const gaps = { guest: await audioGap(g), agent: await audioGap(a) };
    console.info(`line steps: audioOnly ${toAudioOnlyMs} ms after the line fell (agent told at ${agentToldMs} ms); longest audio gap guest ${gaps.guest.longest} ms, agent ${gaps.agent.longest} ms`);
    expect(gaps.guest.packets, 'guest: audio packets').toBeGreaterThan(0);
    expect(gaps.agent.packets, 'agent: audio packets').toBeGreaterThan(0);
    expect(gaps.guest.longest, "guest: longest gap in the agent's audio").toBeLessThanOrEqual(1000);
    expect(gaps.agent.longest, "agent: longest gap in the guest's audio").toBeLessThanOrEqual(1000);

    // the line recovers: the guest's video is back at the agent within 10 s, the notices go
    await unshapeGuestLine();
    const recoveredAt = Date.now();
    const paused = await decoded(a);
    await expect.poll(() => decoded(a), { message: "the guest's video back at the agent", timeout: 10_000, intervals: [250] }).toBeGreaterThan(paused + 5);
    const videoBackMs = Date.now() - recoveredAt;
    await expect(a.getByTestId('agent-line-notice')).toHaveCount(0, { timeout: 10_000 });
    await expect(g.getByTestId('line-notice').and(g.locator('[data-notice="ownPaused"]'))).toHaveCount(0);
    console.info(`line steps: video back ${videoBackMs} ms after the line recovered`);
    testInfo.annotations.push({ type: 'line-steps', description: JSON.stringify({ toAudioOnlyMs, agentToldMs, gaps, videoBackMs }) });

    await a.getByTestId('agent-hangup-button').click();
    await expect(a.getByTestId('call-idle')).toBeVisible();
  } finally {
    await closeAll(testInfo, ...[agent, guest].filter((b): b is LaunchedBrowser => !!b));
    await unshapeGuestLine();
  }
});
