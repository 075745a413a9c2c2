/**
 * Sound first on a bad line (docs/protocol.md "Line steps"): a video call on a clean line, then the guest's
 * line shaped to 300 kbit/s in both directions (scripts/lib/netns.sh), where the guest's picture steps
 * down to a small one the line carries; then 25 % of what the guest sends lost on top, where it pauses;
 * then clean again. From the first step down the audio keeps arriving on both sides without a gap over a
 * second (audioGaps.ts), both sides are told (the guest of its own line, the agent of the guest's pause),
 * and the video is back at the agent within 10 s of the line's recovery, the pause's notices gone; the
 * whole picture follows. The times go to docs/performance.md.
 */
import { expect, test, type Page } from '@playwright/test';
import type { LaunchedBrowser } from '../support/browser.ts';
import { closeAll, screenshot } from '../support/journey.ts';
import { mediaCounters } from '../support/media.ts';
import { guestCallsAndAgentAnswers } from '../tests/incall-support.ts';
import { audioSamples, longestGaps, recordAudio } from './audioGaps.ts';
import { guestFirewall, guestUplinkLoss, launchIn, shapeGuestLine, unshapeGuestLine } from './net.ts';

/** The widest video frame the page decodes now (0: none). */
function decodedWidth(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const pcs = ((window as unknown as { __lobbyPeerConnections?: RTCPeerConnection[] }).__lobbyPeerConnections ?? []).filter((pc) => pc.connectionState !== 'closed');
    let width = 0;
    for (const pc of pcs)
      (await pc.getStats()).forEach((s: Record<string, unknown>) => {
        if (s.type === 'inbound-rtp' && s.kind === 'video') width = Math.max(width, Number(s.frameWidth ?? 0));
      });
    return width;
  });
}

/**
 * A timeline of the page's own media every 500 ms, to read what the line steps did when a run fails:
 * the time since the line fell, what was sent (video kbit/s, frame width, audio packets), the far end's
 * loss of it, the send estimate and round trip, the audio received, the notice shown.
 */
async function recordTimeline(page: Page, since: number): Promise<void> {
  await page.evaluate((since) => {
    const w = window as unknown as { __timeline?: string[] };
    w.__timeline = [];
    let last: Record<string, number> = {};
    setInterval(() => {
      const pcs = ((window as unknown as { __lobbyPeerConnections?: RTCPeerConnection[] }).__lobbyPeerConnections ?? []).filter((pc) => pc.connectionState !== 'closed');
      void Promise.all(pcs.map((pc) => pc.getStats())).then((reports) => {
        const now: Record<string, number> = { vBytes: 0, vFrames: 0, vKey: 0, aSent: 0, aRecv: 0, vDec: 0, vLost: 0, aLost: 0 };
        let width = 0, estimate = 0, rtt = 0, target = 0;
        for (const report of reports) {
          const stats: Record<string, unknown>[] = [];
          report.forEach((s: Record<string, unknown>) => stats.push(s));
          // the estimate of the connection that sends video (a receiving one keeps its start value)
          const sends = stats.some((s) => s.type === 'outbound-rtp' && s.kind === 'video');
          for (const s of stats) {
            const n = (k: string) => Number(s[k] ?? 0);
            if (s.type === 'outbound-rtp' && s.kind === 'video') {
              now.vBytes! += n('bytesSent');
              now.vFrames! += n('framesEncoded');
              now.vKey! += n('keyFramesEncoded');
              width = Math.max(width, n('frameWidth'));
              target = Math.max(target, n('targetBitrate'));
            }
            if (s.type === 'outbound-rtp' && s.kind === 'audio') now.aSent! += n('packetsSent');
            if (s.type === 'inbound-rtp' && s.kind === 'audio') now.aRecv! += n('packetsReceived');
            if (s.type === 'inbound-rtp' && s.kind === 'video') now.vDec! += n('framesDecoded');
            if (s.type === 'remote-inbound-rtp') now[s.kind === 'video' ? 'vLost' : 'aLost']! += n('packetsLost');
            if (s.type === 'candidate-pair' && s.nominated && s.state === 'succeeded') {
              if (sends) estimate = Math.max(estimate, n('availableOutgoingBitrate'));
              rtt = Math.max(rtt, n('currentRoundTripTime'));
            }
          }
        }
        const d = (k: string) => (now[k] ?? 0) - (last[k] ?? 0);
        const notice = document.querySelector('[data-notice]')?.getAttribute('data-notice') ?? '-';
        w.__timeline!.push(
          `${((Date.now() - since) / 1000).toFixed(1)}s video ${Math.round((d('vBytes') * 8 * 2) / 1000)}kbit/s (target ${Math.round(target / 1000)}) w${width} frames ${d('vFrames')} key ${d('vKey')} lost v${d('vLost')} a${d('aLost')} | audio sent ${d('aSent')} recv ${d('aRecv')} | decoded ${d('vDec')} | est ${Math.round(estimate / 1000)} rtt ${Math.round(rtt * 1000)} | ${notice}`,
        );
        last = now;
      });
    }, 500);
  }, since);
}

const timeline = (page: Page) => page.evaluate(() => (window as unknown as { __timeline?: string[] }).__timeline ?? []);

test('when the guest line falls to 300 kbit/s and then loses 25 %, then its video steps down and pauses to keep the sound, both sides are told, and the video comes back when the line recovers', async ({}, testInfo) => {
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

    // the line falls to 300 kbit/s: the guest's picture steps down to a small one, which the line carries
    await shapeGuestLine('300kbit');
    const degradedAt = Date.now();
    await recordTimeline(g, degradedAt);
    await recordTimeline(a, degradedAt);
    await expect(g.getByTestId('line-notice')).toHaveAttribute('data-notice', 'ownReduced', { timeout: 20_000 });
    const firstStepMs = Date.now() - degradedAt;
    // from the first step down on, the audio may not stop
    await recordAudio(g);
    await recordAudio(a);
    await expect.poll(() => decodedWidth(a), { message: "the guest's smaller picture at the agent", timeout: 15_000 }).toBeLessThanOrEqual(320);
    const frames = await decoded(a);
    await expect.poll(() => decoded(a), { message: "the guest's smaller picture keeps coming", timeout: 10_000 }).toBeGreaterThan(frames + 10);
    await expect(a.getByTestId('agent-line-notice')).toHaveCount(0);

    // and loses a quarter of what the guest sends: the picture pauses, the sound goes on
    await guestUplinkLoss(25);
    const lossAt = Date.now();
    await expect(g.getByTestId('line-notice')).toHaveAttribute('data-notice', 'ownPaused', { timeout: 20_000 });
    const pausedAt = Date.now();
    const toAudioOnlyMs = pausedAt - lossAt;
    await expect(a.getByTestId('agent-line-notice')).toHaveAttribute('data-notice', 'call.lineGuestPaused', { timeout: 10_000 });
    const agentToldMs = Date.now() - lossAt;
    // the guest's encoder sends nothing: its frames stop
    const encoded = (await mediaCounters(g)).videoFramesEncoded;
    await g.waitForTimeout(1500);
    expect((await mediaCounters(g)).videoFramesEncoded, "the guest's video encoder paused").toBeLessThanOrEqual(encoded + 2);

    // each side's notice, as a person sees it: the guest on a phone, the agent on a laptop
    await g.setViewportSize({ width: 390, height: 844 });
    await a.setViewportSize({ width: 1366, height: 800 });
    await screenshot(g, testInfo, 'line-steps-guest-paused-phone');
    await screenshot(a, testInfo, 'line-steps-agent-guest-paused-laptop');

    // 15 s of the lossy line from the pause, and the audio kept arriving on both sides since the first step
    await g.waitForTimeout(Math.max(0, pausedAt + 15_000 - Date.now()));
    const [gs, as] = [await audioSamples(g), await audioSamples(a)];
    const gaps = {
      guest: { packets: longestGaps(gs, as, 'received'), decoded: longestGaps(gs, as, 'decoded') },
      agent: { packets: longestGaps(as, gs, 'received'), decoded: longestGaps(as, gs, 'decoded') },
    };
    const shown = (x: { raw: number; line: number }) => `${x.line} ms (${x.raw} ms with the sender's stalls)`;
    console.info(
      `line steps: reduced ${firstStepMs} ms after the line fell to 300 kbit/s; audioOnly ${toAudioOnlyMs} ms after 25 % loss (agent told at ${agentToldMs} ms); ` +
        `longest audio gap at the guest: packets ${shown(gaps.guest.packets)}, decoded ${shown(gaps.guest.decoded)}; at the agent: packets ${shown(gaps.agent.packets)}, decoded ${shown(gaps.agent.decoded)}`,
    );
    for (const [who, samples] of [['guest', gs], ['agent', as]] as const) {
      expect(samples.at(-1)!.received - samples[0]!.received, `${who}: audio packets`).toBeGreaterThan(500);
      expect(samples.at(-1)!.decoded - samples[0]!.decoded, `${who}: audio decoded`).toBeGreaterThan(0);
    }
    expect(gaps.guest.packets.line, "guest: longest gap in the agent's audio packets").toBeLessThanOrEqual(1000);
    expect(gaps.guest.decoded.line, "guest: longest gap in the agent's decoded audio").toBeLessThanOrEqual(1000);
    expect(gaps.agent.packets.line, "agent: longest gap in the guest's audio packets").toBeLessThanOrEqual(1000);
    expect(gaps.agent.decoded.line, "agent: longest gap in the guest's decoded audio").toBeLessThanOrEqual(1000);

    // the line recovers: the guest's video is back at the agent, whole, and the notices go
    await guestUplinkLoss(0);
    await unshapeGuestLine();
    const recoveredAt = Date.now();
    const paused = await decoded(a);
    await expect.poll(() => decoded(a), { message: "the guest's video back at the agent", timeout: 10_000, intervals: [250] }).toBeGreaterThan(paused + 5);
    const videoBackMs = Date.now() - recoveredAt;
    await expect(a.getByTestId('agent-line-notice')).toHaveCount(0, { timeout: 10_000 });
    await expect(g.getByTestId('line-notice')).toHaveCount(0, { timeout: 30_000 });
    const fullMs = Date.now() - recoveredAt;
    await expect.poll(() => decodedWidth(a), { message: "the guest's whole picture at the agent", timeout: 10_000 }).toBeGreaterThanOrEqual(640);
    const wholeMs = Date.now() - recoveredAt;
    // at full the guest takes the agent's video again
    const agentVideo = await decoded(g);
    await expect.poll(() => decoded(g), { message: "the agent's video back at the guest", timeout: 10_000 }).toBeGreaterThan(agentVideo + 5);
    const agentVideoMs = Date.now() - recoveredAt;
    console.info(`line steps: after the recovery the guest's video at the agent ${videoBackMs} ms, the notices gone ${fullMs} ms, whole at the agent ${wholeMs} ms, the agent's video at the guest ${agentVideoMs} ms`);
    testInfo.annotations.push({ type: 'line-steps', description: JSON.stringify({ firstStepMs, toAudioOnlyMs, agentToldMs, gaps, videoBackMs, fullMs, wholeMs, agentVideoMs }) });

    await a.getByTestId('agent-hangup-button').click();
    await expect(a.getByTestId('call-idle')).toBeVisible();
  } finally {
    for (const b of [guest, agent]) if (b) for (const line of await timeline(b.page).catch(() => [])) b.log.push(`[timeline] ${line}`);
    await closeAll(testInfo, ...[agent, guest].filter((b): b is LaunchedBrowser => !!b));
    await guestUplinkLoss(0);
    await unshapeGuestLine();
  }
});
