/**
 * In-call chat: messages travel through the guest's XMPP room between the guest and the
 * call's agent, shown oldest to newest with the newest by the input at the bottom, as in a messenger;
 * while a side's chat is closed its unread count shows what arrived, and its button's name says it.
 */
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { BASE_URL, registerGuest } from '../support/api.ts';
import { closeAll, screenshot } from '../support/journey.ts';
import { guestCallsAndAgentAnswers, launchPair, sendChat } from './incall-support.ts';

test('when the agent writes during a call, then the guest sees an unread count, reads it and answers', async ({}, testInfo) => {
  const { agent, guest } = await launchPair();
  try {
    await guestCallsAndAgentAnswers(agent, guest);
    await expect(guest.page.getByTestId('chat-unread')).toHaveCount(0);

    // act: the agent writes two messages while the guest's chat is closed
    await sendChat(agent.page, 'agent-', 'Hello, how can I help?');
    await sendChat(agent.page, 'agent-', 'I can see your <b>camera</b> now');

    // assert: the guest's unread count says 2; the agent's own messages are in its panel, newest last
    await expect(guest.page.getByTestId('chat-unread')).toHaveText('2');
    await expect(agent.page.getByTestId('chat-message')).toHaveText([
      /Hello, how can I help\?/,
      /I can see your <b>camera<\/b> now/,
    ]);

    // act: the guest opens the chat
    await guest.page.getByTestId('chat-toggle-button').click();

    // assert: newest last, shown as text (no markup), and nothing is unread any more
    const guestMessages = guest.page.getByTestId('chat-message');
    await expect(guestMessages).toHaveText([/Hello, how can I help\?/, /I can see your <b>camera<\/b> now/]);
    await expect(guestMessages.last()).toHaveAttribute('data-mine', 'false');
    await expect(guest.page.getByTestId('chat-messages').locator('b')).toHaveCount(0);
    await expect(guest.page.getByTestId('chat-unread')).toHaveCount(0);
    // on a laptop (1024 px) the open chat docks beside the call: the hang-up button is not covered
    const hangup = guest.page.getByTestId('hangup-button');
    await expect(hangup).toBeInViewport();
    const hangupOnTop = await hangup.evaluate((button) => {
      const r = button.getBoundingClientRect();
      const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return !!hit && button.contains(hit);
    });
    expect(hangupOnTop).toBe(true);

    // act: the agent closes its chat; the guest replies
    await agent.page.getByTestId('agent-chat-toggle-button').click();
    await sendChat(guest.page, '', 'My order number is 12345');

    // assert: the agent's unread count shows the reply, also in its button's name; opening shows it last
    await expect(agent.page.getByTestId('agent-chat-unread')).toHaveText('1');
    await expect(agent.page.getByTestId('agent-chat-toggle-button')).toHaveAccessibleName('Open chat, 1 unread message');
    await expect(guestMessages.last()).toHaveText(/My order number is 12345/);
    await expect(guestMessages.last()).toHaveAttribute('data-mine', 'true');
    await agent.page.getByTestId('agent-chat-toggle-button').click();
    await expect(agent.page.getByTestId('chat-message').last()).toHaveText(/My order number is 12345/);
    await expect(agent.page.getByTestId('agent-chat-unread')).toHaveCount(0);
    await screenshot(guest.page, testInfo, 'incall-chat-guest');
    await screenshot(agent.page, testInfo, 'incall-chat-agent');
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});

test('when many messages arrive, then the newest is at the bottom by the input, a reader of older ones stays where they read, and Escape from a panel\'s button closes it', async ({}, testInfo) => {
  const { agent, guest } = await launchPair();
  try {
    await guestCallsAndAgentAnswers(agent, guest);
    const page = guest.page;
    const chatButton = page.getByTestId('chat-toggle-button');
    await chatButton.click();
    await expect(page.getByTestId('chat-panel')).toBeVisible();

    // act: the agent writes more lines than the guest's chat shows at once
    for (let line = 1; line <= 14; line++) await sendChat(agent.page, 'agent-', `Line ${line} of the offer`);

    // assert: the newest is the last line, just above the input, in view; the oldest has scrolled away
    const messages = page.getByTestId('chat-message');
    await expect(messages).toHaveCount(14);
    const newest = messages.last();
    await expect(newest).toHaveText(/Line 14 of the offer/);
    await expect(newest).toBeInViewport();
    await expect(messages.first()).not.toBeInViewport();
    const newestBox = await newest.boundingBox();
    const inputBox = await page.getByTestId('chat-input').boundingBox();
    expect(newestBox && inputBox && newestBox.y + newestBox.height <= inputBox.y).toBe(true);
    await screenshot(page, testInfo, 'incall-chat-many-guest');

    // act: the guest scrolls up with the mouse wheel to read the first lines; the agent writes again
    await page.getByTestId('chat-messages').hover();
    await page.mouse.wheel(0, -5000);
    await expect(messages.first()).toBeInViewport();
    await sendChat(agent.page, 'agent-', 'Line 15 of the offer');

    // assert: the reader is left where they read (the new line arrived below, out of view)
    await expect(messages).toHaveCount(15);
    await expect(messages.first()).toBeInViewport();
    await expect(messages.last()).not.toBeInViewport();

    // act: back at the bottom, the next line is followed
    await page.mouse.wheel(0, 5000);
    await expect(messages.last()).toBeInViewport();
    await sendChat(agent.page, 'agent-', 'Line 16 of the offer');
    await expect(messages).toHaveCount(16);
    await expect(messages.last()).toHaveText(/Line 16 of the offer/);
    await expect(messages.last()).toBeInViewport();

    // act: the focus is still on the chat button that opened the chat; the guest presses Escape
    await expect(chatButton).toBeFocused();
    await page.keyboard.press('Escape');
    // assert: the chat closed; the focus stays on its button
    await expect(page.getByTestId('chat-panel')).toHaveCount(0);
    await expect(chatButton).toBeFocused();

    // the same for the camera and sound panel, from its button
    const devicesButton = page.getByTestId('devices-button');
    await devicesButton.click();
    await expect(page.getByTestId('device-panel')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('device-panel')).toHaveCount(0);
    await expect(devicesButton).toBeFocused();

    // and for the agent, from inside its chat: the focus goes back to its chat button
    await screenshot(agent.page, testInfo, 'incall-chat-many-agent');
    await agent.page.getByTestId('chat-input').click();
    await agent.page.keyboard.press('Escape');
    await expect(agent.page.getByTestId('chat-panel')).toHaveCount(0);
    await expect(agent.page.getByTestId('agent-chat-toggle-button')).toBeFocused();
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});

/** An 8×8 red PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEklEQVR4nGP4z8CAFWEXHbQSACj/P8Fu7N9hAAAAAElFTkSuQmCC',
  'base64',
);

test('when the guest sends an image in the chat, then the agent sees its preview', async ({}, testInfo) => {
  const { agent, guest } = await launchPair();
  try {
    await guestCallsAndAgentAnswers(agent, guest);

    // act: the guest opens the chat and sends a picture (POST /api/upload/image, forChat)
    await guest.page.getByTestId('chat-toggle-button').click();
    await guest.page.getByTestId('chat-file-input').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: PNG });

    // assert: the agent's unread count goes up; opening shows the picture itself, loaded from our server
    await expect(agent.page.getByTestId('agent-chat-unread')).toHaveText('1');
    await agent.page.getByTestId('agent-chat-toggle-button').click();
    const preview = agent.page.getByTestId('chat-message').last().getByTestId('chat-file').locator('img');
    await expect(preview).toHaveAttribute('alt', 'receipt.png');
    await expect(preview).toHaveAttribute('src', /\/api\/files\//);
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(8);
    await expect(guest.page.getByTestId('chat-message').last()).toHaveAttribute('data-mine', 'true');
    await screenshot(agent.page, testInfo, 'incall-chat-file-agent');
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});

/** The smallest PDF the upload's content check accepts as a document. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

test('when the agent sends an image and a PDF in the chat, then the guest sees the picture and a download link, and another guest cannot read them', async ({}, testInfo) => {
  const { agent, guest } = await launchPair();
  try {
    await guestCallsAndAgentAnswers(agent, guest);

    // act: the agent sends a picture and a PDF from the console's chat
    await agent.page.getByTestId('agent-chat-toggle-button').click();
    const upload = agent.page.waitForResponse((r) => r.url().includes('/api/upload/image') && r.request().method() === 'POST');
    await agent.page.getByTestId('chat-file-input').setInputFiles({ name: 'offer.png', mimeType: 'image/png', buffer: PNG });
    const fileUrl = ((await (await upload).json()) as { data: { fileUrl: string } }).data.fileUrl;
    await expect(agent.page.getByTestId('chat-message')).toHaveCount(1);
    await agent.page.getByTestId('chat-file-input').setInputFiles({ name: 'terms.pdf', mimeType: 'application/pdf', buffer: PDF });
    await expect(agent.page.getByTestId('chat-message')).toHaveCount(2);

    // assert: the guest's unread count; opening shows the picture decoded and the PDF as a download link
    await expect(guest.page.getByTestId('chat-unread')).toHaveText('2');
    await guest.page.getByTestId('chat-toggle-button').click();
    const files = guest.page.getByTestId('chat-message').getByTestId('chat-file');
    await expect(files).toHaveCount(2);
    const pdfLink = files.nth(1);
    await expect(pdfLink).toHaveAttribute('data-state', 'ready');
    await expect(pdfLink).toHaveAttribute('download', 'terms.pdf');
    await expect(pdfLink).toHaveText(/terms\.pdf/);
    const picture = files.nth(0).locator('img');
    await expect(picture).toHaveAttribute('alt', 'offer.png');
    await expect(picture).toHaveAttribute('src', /^blob:/);
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(8);
    // the link downloads the PDF's bytes themselves
    const download = guest.page.waitForEvent('download');
    await pdfLink.click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe('terms.pdf');
    expect(fs.readFileSync(await saved.path()).equals(PDF)).toBe(true);
    await screenshot(guest.page, testInfo, 'incall-chat-agent-file-guest');

    // assert: the file is the call's guest's only: another guest's token gets 403, no token 401
    const other = await registerGuest();
    const asOther = await fetch(`${BASE_URL}${fileUrl}`, { headers: { authorization: `Bearer ${other.access_token}` } });
    expect(asOther.status).toBe(403);
    expect((await fetch(`${BASE_URL}${fileUrl}`)).status).toBe(401);
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});
