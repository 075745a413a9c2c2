/**
 * In Arabic on a phone (390×844): an English company message keeps its own
 * direction inside the right-to-left page, the company's name is not cut in the header, Escape closes
 * the camera-and-sound panel, and the chat button's name says how many messages are unread.
 */
import { expect, test } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { agentSignsIn, closeAll } from '../support/journey.ts';
import { arrangeCompanySettings, restoreAll } from '../support/guest/arrange.ts';
import { PHONE, expectScreen, record } from '../support/guest/screens.ts';
import { sendChat } from './incall-support.ts';

test.afterEach(async () => {
  await restoreAll();
});

test('when the page is in Arabic on a phone, then English company texts keep their direction, the name is whole, Escape closes the devices panel and the chat button counts unread messages', async ({}, testInfo) => {
  await arrangeCompanySettings({
    language: 'arabic',
    previewScreen: false,
    welcomeMsg: 'Talk to our team, face to face.',
    welcomeMsg_ar: '',
  });
  const agent = await launchParticipant('agent');
  const guest = await launchParticipant('guest-ar-phone', { viewport: PHONE });
  try {
    await agentSignsIn(agent.page);
    const page = guest.page;
    await page.goto('/');
    await expectScreen(page, 'selection', 'ar');

    // assert: the English welcome message is laid out left to right inside the rtl page
    const welcome = page.getByTestId('welcome-message');
    await expect(welcome).toHaveText('Talk to our team, face to face.');
    expect(await welcome.evaluate((el) => el.matches(':dir(ltr)'))).toBe(true);

    // act: call; the waiting screen has the company's name in the header
    await page.getByTestId('assignment-option').first().click();
    await page.locator('[data-testid="call-button"][data-call-kind="video"]').click();
    await expectScreen(page, 'waiting', 'ar');
    const name = page.locator('header').getByText('Lobby Demo');
    await expect(name).toBeVisible();
    const cut = await name.evaluate(
      (el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1,
    );
    expect(cut, 'the company name is cut').toBe(false);
    await record(page, testInfo, 'guest-ar-phone-waiting');

    // act: the agent answers; the guest opens the devices panel and presses Escape
    const item = agent.page.getByTestId('queue-item');
    await expect(item).toHaveCount(1);
    await item.getByTestId('answer-button').click();
    await expect(page.locator('[data-screen="ongoing"]')).toBeVisible();
    // the ongoing screen shows no cut company name: on a phone the call takes the whole screen (no
    // header), and any name still shown is whole
    await expect(page.locator('[data-layout="immersive"]')).toBeVisible();
    for (const shown of await page.getByText('Lobby Demo').all()) {
      if (!(await shown.isVisible())) continue;
      expect(
        await shown.evaluate((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1),
        'the company name is cut on the ongoing screen',
      ).toBe(false);
    }
    await page.getByTestId('devices-button').click();
    await expect(page.getByTestId('device-panel')).toBeVisible();
    await page.getByTestId('device-panel').locator('button').first().focus();
    await page.keyboard.press('Escape');

    // assert: the panel closed and focus is back on its button
    await expect(page.getByTestId('device-panel')).toHaveCount(0);
    await expect(page.getByTestId('devices-button')).toBeFocused();

    // act: the agent writes twice
    await sendChat(agent.page, 'agent-', 'مرحبا');
    await sendChat(agent.page, 'agent-', 'Hello');

    // assert: the chat button's accessible name carries the count, in Arabic
    const chatButton = page.getByTestId('chat-toggle-button');
    await expect(page.getByTestId('chat-unread')).toHaveText('2');
    await expect(chatButton).toHaveAccessibleName(/رسالتان غير مقروءتين/);
    await record(page, testInfo, 'guest-ar-phone-unread');

    // and Escape closes the chat too
    await chatButton.click();
    await expect(page.getByTestId('chat-panel')).toBeVisible();
    // the messages' times read in Arabic: no AM/PM, the Arabic morning/evening mark or digits
    const times = page.getByTestId('chat-panel').getByTestId('chat-time');
    await expect(times).toHaveCount(2);
    for (const time of await times.allInnerTexts()) {
      expect(time, 'a chat time in Latin AM/PM').not.toMatch(/AM|PM/i);
      expect(time, 'a chat time not in Arabic').toMatch(/[صم]|[\u0660-\u0669]/);
    }
    await record(page, testInfo, 'guest-ar-phone-chat-times');
    // oldest first, the newest at the bottom by the input
    await expect(page.getByTestId('chat-message')).toHaveText([/مرحبا/, /Hello/]);
    await page.getByTestId('chat-input').focus();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('chat-panel')).toHaveCount(0);
    await expect(chatButton).toBeFocused();

    // and from the chat button itself, where the focus is after opening it
    await chatButton.click();
    await expect(page.getByTestId('chat-panel')).toBeVisible();
    await expect(chatButton).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('chat-panel')).toHaveCount(0);
    await expect(chatButton).toBeFocused();
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});
