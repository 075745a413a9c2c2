/**
 * A guest on a phone (390×844): the "microphone is muted" note never covers a
 * call button, and on hold the guest can still open the chat and end the call (the hold page used to
 * cover every button while keyboard focus still reached the hidden End call).
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { expectReportEnded } from '../support/db.ts';
import { closeAll, screenshot } from '../support/journey.ts';
import { guestCallsAndAgentAnswers } from './incall-support.ts';

const PHONE = { width: 390, height: 844 };

/** The element a tap at the centre of `target` would reach is `target` itself (or inside it). */
async function tappable(page: Page, target: Locator): Promise<boolean> {
  const box = await target.boundingBox();
  if (!box) return false;
  const handle = await target.elementHandle();
  return page.evaluate(
    ({ x, y, el }) => {
      const hit = document.elementFromPoint(x, y);
      return !!hit && !!el && (hit === el || el.contains(hit));
    },
    { x: box.x + box.width / 2, y: box.y + box.height / 2, el: handle },
  );
}

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('when a guest on a phone mutes and is put on hold, then no call button is covered and it can chat and hang up on hold', async ({}, testInfo) => {
  const agent = await launchParticipant('agent');
  const guest = await launchParticipant('guest-phone', { viewport: PHONE });
  try {
    const { callId } = await guestCallsAndAgentAnswers(agent, guest);
    const buttons = [
      'mute-audio-button',
      'mute-video-button',
      'devices-button',
      'screen-share-button',
      'chat-toggle-button',
      'hangup-button',
    ];

    // act: the guest mutes its microphone
    await guest.page.getByTestId('mute-audio-button').click();
    const note = guest.page.getByRole('status').filter({ hasText: 'muted' }).first();
    await expect(note).toBeVisible();

    // assert: the note covers none of the buttons, each still takes a tap
    const noteBox = (await note.boundingBox())!;
    for (const id of buttons) {
      const button = guest.page.getByTestId(id);
      expect(overlaps(noteBox, (await button.boundingBox())!), `the muted note covers ${id}`).toBe(false);
      expect(await tappable(guest.page, button), `${id} takes a tap`).toBe(true);
    }
    await screenshot(guest.page, testInfo, 'incall-phone-muted');

    // act: the agent puts the call on hold
    await agent.page.getByTestId('agent-hold-button').click();
    await expect(guest.page.getByTestId('hold-page')).toBeVisible();

    // assert: the chat and End call are reachable above the hold page, by tap and by keyboard
    expect(await tappable(guest.page, guest.page.getByTestId('chat-toggle-button'))).toBe(true);
    expect(await tappable(guest.page, guest.page.getByTestId('hangup-button'))).toBe(true);
    await screenshot(guest.page, testInfo, 'incall-phone-hold');
    await guest.page.getByTestId('chat-toggle-button').click();
    await expect(guest.page.getByTestId('chat-panel')).toBeVisible();
    await guest.page.getByTestId('chat-input').fill('Still there?');
    await guest.page.getByTestId('chat-send').click();
    await expect(guest.page.getByTestId('chat-message')).toHaveCount(1);
    await guest.page.getByRole('button', { name: /close/i }).first().click();

    // act: the guest hangs up while on hold
    await guest.page.getByTestId('hangup-button').focus();
    await guest.page.keyboard.press('Enter');

    // assert: the call ended for both and the report says so
    await expect(guest.page.locator('[data-screen="abandoned"], [data-screen="rating"]')).toBeVisible();
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();
    await expectReportEnded(callId);
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});
