/**
 * A guest on a slow line: the guest's link shaped to 300 kbit/s in both directions with tbf
 * (scripts/lib/netns.sh) before the page even loads; the voice call connects and audio keeps arriving
 * on both sides.
 */
import { expect, test } from '@playwright/test';
import type { LaunchedBrowser } from '../support/browser.ts';
import { closeAll } from '../support/journey.ts';
import { mediaCounters } from '../support/media.ts';
import { guestCallsAndAgentAnswers } from '../tests/incall-support.ts';
import {
  expectSelectedPairs,
  guestFirewall,
  launchIn,
  shapeGuestLine,
  shapedBytes,
  unshapeGuestLine,
} from './net.ts';

test('when the guest line is shaped to 300 kbit/s, then the voice call connects and audio keeps arriving on both sides', async ({}, testInfo) => {
  test.setTimeout(180_000);
  await guestFirewall('open');
  await shapeGuestLine('300kbit');
  let agent: LaunchedBrowser | undefined;
  let guest: LaunchedBrowser | undefined;
  try {
    agent = await launchIn('agent', 'shaped-agent');
    guest = await launchIn('guest', 'shaped-guest');
    await guestCallsAndAgentAnswers(agent, guest, 'voice');
    await expectSelectedPairs(guest.page, 'guest');

    // audio packets keep arriving: every 2 s window of 10 s has new ones, on both sides
    const pages = { guest: guest.page, agent: agent.page };
    for (const [who, page] of Object.entries(pages)) {
      await expect
        .poll(async () => (await mediaCounters(page)).audioPacketsReceived, {
          message: `${who}: first audio packet`,
        })
        .toBeGreaterThan(0);
    }
    let last = { guest: 0, agent: 0 };
    for (let window = 0; window < 5; window++) {
      const now = {
        guest: (await mediaCounters(guest.page)).audioPacketsReceived,
        agent: (await mediaCounters(agent.page)).audioPacketsReceived,
      };
      if (window > 0) {
        expect(now.guest, `guest: audio packets in window ${window}`).toBeGreaterThan(last.guest);
        expect(now.agent, `agent: audio packets in window ${window}`).toBeGreaterThan(last.agent);
      }
      last = now;
      await guest.page.waitForTimeout(2000);
    }
    // and the call's traffic did pass through the shaped queues of both directions
    const shaped = await shapedBytes();
    expect(shaped.up, 'bytes the guest sent through its 300 kbit/s queue').toBeGreaterThan(50_000);
    expect(shaped.down, 'bytes the router sent the guest through its 300 kbit/s queue').toBeGreaterThan(
      50_000,
    );

    await agent.page.getByTestId('agent-hangup-button').click();
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();
  } finally {
    await closeAll(testInfo, ...[agent, guest].filter((b): b is LaunchedBrowser => !!b));
    await unshapeGuestLine();
  }
});
