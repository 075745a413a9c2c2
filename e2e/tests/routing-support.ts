/** Set-up the routing journeys share: a second agent made through the admin API, appointments. */
import { expect, type Page } from '@playwright/test';
import { BASE_URL, DEMO_ADMIN, consoleLogin } from '../support/api.ts';

export async function adminApi<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const cookie = await consoleLogin(DEMO_ADMIN);
  const response = await fetch(`${BASE_URL}/api${path}`, {
    method,
    headers: { cookie, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

export interface MadeAgent {
  id: number;
  email: string;
  password: string;
  name: string;
}

/** A new agent of the demo company serving the named assignments (unique per call). */
export async function makeAgent(label: string, assignmentNames: string[]): Promise<MadeAgent> {
  const { assignments } = await adminApi<{ assignments: Array<{ id: number; name: string }> }>('GET', '/admin/assignments');
  const assignmentIds = assignments.filter((a) => assignmentNames.includes(a.name)).map((a) => a.id);
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const agent = { name: `${label} ${stamp}`, email: `${label.toLowerCase()}-${stamp}@demo.lobby`, password: `pw-${stamp}-routing` };
  const { id } = await adminApi<{ id: number }>('POST', '/admin/users', { ...agent, role: 'agent', assignmentIds });
  return { id, ...agent };
}

export async function bookAppointment(agentId: number): Promise<{ reference: string; link: string }> {
  return adminApi('POST', '/admin/appointments', { agentId, startsAt: new Date(Date.now() + 600_000).toISOString() });
}

/**
 * The agent in the call picks the taker in the transfer dialog; the taker is offered the call and takes
 * it. `beforeAccept` runs while the offer shows (a screenshot).
 */
export async function transferAndAccept(from: Page, taker: Page, takerJid: string, callId: string, beforeAccept?: () => Promise<void>): Promise<void> {
  await from.getByTestId('agent-transfer-button').click();
  // the taker must be listed as available (an expectation, so that a missing one fails in seconds, not at the test's timeout)
  const target = from.getByTestId('transfer-dialog').locator(`[data-testid="transfer-target-agent"][data-jid="${takerJid}"]`);
  await expect(target).toBeVisible();
  await target.click();
  await from.keyboard.press('Escape');
  const incoming = taker.getByTestId('incoming-transfer');
  await expect(incoming).toHaveAttribute('data-call-id', callId);
  await beforeAccept?.();
  await incoming.getByTestId('accept-transfer-button').click();
}
