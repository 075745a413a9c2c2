/** Steps that several journeys share, written the way a person does them. */
import { expect, type Page, type TestInfo } from '@playwright/test';
import fs from 'node:fs';
import type { LaunchedBrowser } from './browser.ts';
import { DEMO_AGENT } from './api.ts';

export async function agentSignsIn(
  page: Page,
  user: { email: string; password: string } = DEMO_AGENT,
): Promise<void> {
  await page.goto('/console/');
  await page.getByTestId('login-email').fill(user.email);
  await page.getByTestId('login-password').fill(user.password);
  await page.getByTestId('login-submit').click();
  await expect(page.locator('[data-screen="workspace"]')).toBeVisible();
}

export async function consoleUserJid(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const response = await fetch('/api/console/me');
    const body = (await response.json()) as { data: { user: { jid: string } } };
    return body.data.user.jid;
  });
}

/** Saves a screenshot as a test artifact (and into e2e/artifacts/screens for a person to look at). */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  fs.mkdirSync('e2e/artifacts/screens', { recursive: true });
  const body = await page.screenshot({ path: `e2e/artifacts/screens/${name}.png`, fullPage: true });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

/**
 * A journey that failed mid-call leaves its calls open (nobody hangs up, and a call whose guest and agent
 * both went keeps its room until its media tokens expire); a next journey that counts rooms per node
 * (e2e/scale/janusNodes.ts) would fail on them. So each agent still in a call hangs up before the
 * browsers close, as a person would; whatever this meets is already reported by the failure.
 */
export async function hangUpWhatIsLeft(...agents: LaunchedBrowser[]): Promise<void> {
  for (const agent of agents) {
    const button = agent.page.getByTestId('agent-hangup-button');
    if (!(await button.isVisible().catch(() => false))) continue;
    await button.click({ timeout: 5000 }).catch(() => undefined);
    await agent.page.getByTestId('call-idle').waitFor({ timeout: 10_000 }).catch(() => undefined);
  }
}

/** What the apps kept of their console instead of printing it (docs/operations.md §13); [] when unreadable. */
export async function keptConsole(page: Page): Promise<{ at: number; level: string; text: string }[]> {
  return page
    .evaluate(() => (window as unknown as { __lobbyConsole?: () => { at: number; level: string; text: string }[] }).__lobbyConsole?.() ?? [])
    .catch(() => []);
}

/** Closes the browsers; on failure their console logs go with the report. */
export async function closeAll(testInfo: TestInfo, ...browsers: LaunchedBrowser[]): Promise<void> {
  for (const b of browsers) {
    for (const page of b.context.pages()) {
      for (const e of await keptConsole(page)) b.log.push(`[kept ${new Date(e.at).toISOString()}] ${e.level} ${e.text}`);
    }
  }
  // attached every time: while the test body runs, its status does not yet say whether it failed
  const body = browsers.flatMap((b) => b.log).join('\n');
  await testInfo.attach('browser-logs', { body, contentType: 'text/plain' });
  fs.mkdirSync('e2e/artifacts/logs', { recursive: true });
  fs.writeFileSync(
    `e2e/artifacts/logs/${testInfo.titlePath
      .slice(1)
      .join(' ')
      .replace(/[^\w-]+/g, '_')
      .slice(0, 80)}.log`,
    body,
  );
  await Promise.all(browsers.map((b) => b.close()));
}
