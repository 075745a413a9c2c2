/** The start every in-call journey shares: the agent signed in, the guest calls, the agent answers. */
import { expect, type Page } from '@playwright/test';
import { launchParticipant, type LaunchedBrowser } from '../support/browser.ts';
import { agentSignsIn, consoleUserJid } from '../support/journey.ts';
import { expectMediaFlowing } from '../support/media.ts';

export interface AnsweredCall {
  agent: LaunchedBrowser;
  guest: LaunchedBrowser;
  agentJid: string;
  callId: string;
}

/** Launches both browsers; the caller closes them (closeAll) in its finally. */
export async function launchPair(): Promise<{ agent: LaunchedBrowser; guest: LaunchedBrowser }> {
  const agent = await launchParticipant('agent');
  const guest = await launchParticipant('guest', { viewport: { width: 1024, height: 768 } });
  return { agent, guest };
}

export async function guestCallsAndAgentAnswers(
  agent: LaunchedBrowser,
  guest: LaunchedBrowser,
  kind: 'video' | 'voice' = 'video',
): Promise<AnsweredCall> {
  await agentSignsIn(agent.page);
  const agentJid = await consoleUserJid(agent.page);
  await guest.page.goto('/');
  await guest.page.getByTestId('assignment-option').filter({ hasText: 'Sales' }).click();
  await guest.page.locator(`[data-testid="call-button"][data-call-kind="${kind}"]`).click();
  const item = agent.page.getByTestId('queue-item');
  await expect(item).toHaveCount(1);
  const callId = (await item.getAttribute('data-call-id')) ?? '';
  await item.getByTestId('answer-button').click();
  await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
  await expect(agent.page.getByTestId('active-call')).toHaveAttribute(
    'data-guest-presence',
    `InCall|${agentJid}|${callId}`,
  );
  if (kind === 'video') {
    await expectMediaFlowing(guest.page, 'guest');
    await expectMediaFlowing(agent.page, 'agent');
  }
  return { agent, guest, agentJid, callId };
}

/** Sends a chat message through the panel (opening it first when closed). */
export async function sendChat(page: Page, prefix: '' | 'agent-', text: string): Promise<void> {
  if (!(await page.getByTestId('chat-panel').isVisible())) {
    await page.getByTestId(`${prefix}chat-toggle-button`).click();
  }
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-send').click();
}
