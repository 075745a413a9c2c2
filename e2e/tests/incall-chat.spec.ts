/**
 * In-call chat (issue 5): messages travel through the guest's XMPP room between the guest and the
 * call's agent, newest first; while a side's chat is closed its unread count shows what arrived.
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

    // assert: the guest's unread count says 2; the agent's own messages are in its panel, newest first
    await expect(guest.page.getByTestId('chat-unread')).toHaveText('2');
    await expect(agent.page.getByTestId('chat-message')).toHaveText([
      /I can see your <b>camera<\/b> now/,
      /Hello, how can I help\?/,
    ]);

    // act: the guest opens the chat
    await guest.page.getByTestId('chat-toggle-button').click();

    // assert: newest first, shown as text (no markup), and nothing is unread any more
    const guestMessages = guest.page.getByTestId('chat-message');
    await expect(guestMessages).toHaveText([/I can see your <b>camera<\/b> now/, /Hello, how can I help\?/]);
    await expect(guestMessages.first()).toHaveAttribute('data-mine', 'false');
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

    // assert: the agent's unread count shows the reply, and opening shows it on top
    await expect(agent.page.getByTestId('agent-chat-unread')).toHaveText('1');
    await expect(guestMessages.first()).toHaveText(/My order number is 12345/);
    await expect(guestMessages.first()).toHaveAttribute('data-mine', 'true');
    await agent.page.getByTestId('agent-chat-toggle-button').click();
    await expect(agent.page.getByTestId('chat-message').first()).toHaveText(/My order number is 12345/);
    await expect(agent.page.getByTestId('agent-chat-unread')).toHaveCount(0);
    await screenshot(guest.page, testInfo, 'incall-chat-guest');
    await screenshot(agent.page, testInfo, 'incall-chat-agent');
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
    const preview = agent.page.getByTestId('chat-message').first().getByTestId('chat-file').locator('img');
    await expect(preview).toHaveAttribute('alt', 'receipt.png');
    await expect(preview).toHaveAttribute('src', /\/api\/files\//);
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(8);
    await expect(guest.page.getByTestId('chat-message').first()).toHaveAttribute('data-mine', 'true');
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
    const pdfLink = files.nth(0);
    await expect(pdfLink).toHaveAttribute('data-state', 'ready');
    await expect(pdfLink).toHaveAttribute('download', 'terms.pdf');
    await expect(pdfLink).toHaveText(/terms\.pdf/);
    const picture = files.nth(1).locator('img');
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
