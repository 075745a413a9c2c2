/**
 * The console's "Website widget" tab (docs/widget.md "Install it"): the list of websites, the snippet to
 * paste with this Lobby's own address, and a live check of a website's address against the list being
 * edited; what the admin saves is what the server lets frame the call page.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { BASE_URL, DEMO_ADMIN } from '../support/api.ts';
import { arrangeCompanySettings, restoreAll } from '../support/guest/arrange.ts';
import { agentSignsIn, closeAll, screenshot } from '../support/journey.ts';

test.afterEach(async () => {
  await restoreAll();
});

test('when an admin opens the Website widget tab, then it shows the snippet with this Lobby\u2019s address and checks a pasted website against the list as it is edited', async ({}, testInfo) => {
  await arrangeCompanySettings({ widgetOrigins: [] }); // put back after the test
  const admin = await launchParticipant('admin', { viewport: { width: 1280, height: 900 } });
  try {
    await agentSignsIn(admin.page, DEMO_ADMIN);
    await admin.page.getByTestId('nav-admin').click();
    await expect(admin.page.locator('[data-screen="admin-settings"]')).toBeVisible();
    await admin.page.getByRole('tab', { name: 'Website widget' }).click();

    await expect(admin.page.getByTestId('widget-snippet')).toHaveText(`<script src="${new URL(BASE_URL).origin}/widget.js" async></script>`);

    // a page of the website, pasted from the browser's bar: judged by its origin
    const check = admin.page.getByLabel('Check a website');
    await check.fill('https://shop.e2e.example/contact?x=1');
    const result = admin.page.getByTestId('widget-check-result');
    await expect(result).toHaveText('https://shop.e2e.example is not listed: add it above, or the button will not appear there.');
    await admin.page.getByLabel('Websites that may embed the call widget').fill('https://shop.e2e.example');
    await expect(result).toHaveText('https://shop.e2e.example is listed: the widget works there once saved.');
    await check.fill('shop.e2e.example');
    await expect(result).toHaveText('Not a website address: it needs https:// (or http://) and a host name.');
    // a line that is not an exact origin is named before it is saved and silently ignored
    await admin.page.getByLabel('Websites that may embed the call widget').fill('https://shop.e2e.example\nhttps://www.e2e.example/');
    await expect(admin.page.getByTestId('widget-ignored-origin')).toHaveText('Not an exact origin (scheme, host and port only), so it is ignored: https://www.e2e.example/');

    const axe = await new AxeBuilder({ page: admin.page }).include('[role="tabpanel"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await screenshot(admin.page, testInfo, 'console-widget-tab');

    await admin.page.getByLabel('Websites that may embed the call widget').fill('https://shop.e2e.example');
    await admin.page.getByTestId('settings-save').click();
    await expect(admin.page.getByTestId('settings-message')).toContainText('Saved');
    // what was saved is what the server now lets frame the call page
    const csp = (await fetch(`${BASE_URL}/?service=widget&origin=${encodeURIComponent('https://shop.e2e.example')}`)).headers.get('content-security-policy');
    expect(csp).toContain("frame-ancestors 'self' https://shop.e2e.example");
  } finally {
    await closeAll(testInfo, admin);
  }
});
