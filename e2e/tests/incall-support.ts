/** The start every in-call journey shares: the agent signed in, the guest calls, the agent answers. */
import { expect, type Locator, type Page } from '@playwright/test';
import { launchParticipant, type LaunchedBrowser } from '../support/browser.ts';
import { DEMO_ADMIN } from '../support/api.ts';
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

/** The agent signs in; the guest calls and waits: its entry in the agent's queue, and its call id. */
export async function guestCallsAndWaits(
  agent: LaunchedBrowser,
  guest: LaunchedBrowser,
  kind: 'video' | 'voice' = 'video',
): Promise<{ item: Locator; callId: string; agentJid: string }> {
  await agentSignsIn(agent.page);
  const agentJid = await consoleUserJid(agent.page);
  await guestCalls(guest.page, kind);
  const item = agent.page.getByTestId('queue-item');
  await expect(item).toHaveCount(1);
  const callId = (await item.getAttribute('data-call-id')) ?? '';
  return { item, callId, agentJid };
}

/** The guest opens the page, picks Sales and starts a call. */
export async function guestCalls(guest: Page, kind: 'video' | 'voice' = 'video'): Promise<void> {
  await guest.goto('/');
  await guest.getByTestId('assignment-option').filter({ hasText: 'Sales' }).click();
  await guest.locator(`[data-testid="call-button"][data-call-kind="${kind}"]`).click();
}

export async function guestCallsAndAgentAnswers(
  agent: LaunchedBrowser,
  guest: LaunchedBrowser,
  kind: 'video' | 'voice' = 'video',
): Promise<AnsweredCall> {
  const { item, callId, agentJid } = await guestCallsAndWaits(agent, guest, kind);
  // as an agent who glances at the queue first: the answer takes the console's standby media session
  // (docs/protocol.md), so every in-call journey (the fault ones too) runs on it
  await expect(agent.page.getByTestId('queue-panel')).toHaveAttribute('data-media-ready', 'true');
  await item.getByTestId('answer-button').click();
  await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
  await expect(agent.page.getByTestId('active-call')).toHaveAttribute(
    'data-guest-presence',
    `InCall|${agentJid}|${callId}`,
  );
  if (kind === 'video') {
    await expectMediaFlowing(guest.page, 'guest', 2000, agent.page);
    await expectMediaFlowing(agent.page, 'agent', 2000, guest.page);
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

/** A new supervisor of the Sales assignment, created by the company's admin, signs in to the console. */
export async function supervisorSignsIn(page: Page): Promise<void> {
  await page.goto('/console/');
  const email = `sup-${Date.now()}@demo.lobby`;
  const password = `Sup-${Date.now()}-pass`;
  const created = await page.evaluate(
    async ({ admin, email, password }) => {
      const login = await fetch('/api/console/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(admin),
      });
      if (!login.ok) return `login ${login.status}`;
      const details = (await (await fetch('/api/company/details?companyId=18')).json()) as {
        data: { assignments: { id: number; name: string }[] };
      };
      const sales = details.data.assignments.find((a) => a.name === 'Sales');
      const response = await fetch('/api/admin/users', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password, name: 'Sam Supervisor', role: 'supervisor', assignmentIds: [sales?.id] }),
      });
      await fetch('/api/console/logout', { method: 'POST' });
      return response.status === 201 || response.status === 200 ? 'ok' : `create ${response.status} ${await response.text()}`;
    },
    { admin: DEMO_ADMIN, email, password },
  );
  expect(created).toBe('ok');
  await page.context().clearCookies();
  await agentSignsIn(page, { email, password });
}

/** The agent writes, the guest reads it and answers, the agent reads the answer: chat works both ways. */
export async function chatBothWays(guest: Page, agent: Page, tag: string): Promise<void> {
  await sendChat(agent, 'agent-', `agent ${tag}`);
  await sendChat(guest, '', `guest ${tag}`);
  await expect(guest.getByTestId('chat-message').filter({ hasText: `agent ${tag}` })).toHaveCount(1);
  await expect(agent.getByTestId('chat-message').filter({ hasText: `guest ${tag}` })).toHaveCount(1);
}
