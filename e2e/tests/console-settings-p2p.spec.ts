/**
 * Peer to peer and recording do not go together (docs/protocol.md "p2p": nothing records a call that
 * passes no media server), and the two settings are on different tabs. An admin switches the call method
 * to "Peer to peer" while "Record calls" is on: the editor says why in the labels the admin sees (English,
 * then Arabic), marks both fields (aria-invalid, the message as their description), does not save, and
 * offers the way out — a button that turns recording off — after which the settings save.
 */
import { expect, test } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { DEMO_ADMIN } from '../support/api.ts';
import { agentSignsIn, closeAll, screenshot } from '../support/journey.ts';
import { adminApi } from './routing-support.ts';

type Settings = { callMethod: string; recordCalls: boolean };

test('when an admin switches to peer to peer while calls are recorded, then the editor names both settings, marks them, and its button turns recording off', async ({}, testInfo) => {
  const original = await adminApi<Settings>('GET', '/admin/company');
  await adminApi('PUT', '/admin/company', { callMethod: 'mediaServer', recordCalls: true });
  const admin = await launchParticipant('admin', { viewport: { width: 1366, height: 768 } });
  try {
    await agentSignsIn(admin.page, DEMO_ADMIN);
    await admin.page.getByTestId('nav-admin').click();
    const page = admin.page;
    await page.getByLabel('Call method').selectOption({ label: 'Peer to peer' });
    // the same control whatever the language
    const method = page.getByTestId('setting-callMethod');

    // the message, in the admin's words, beside the switch
    const alert = page.getByRole('alert').filter({ hasText: 'cannot be recorded' });
    await expect(alert).toContainText('“Peer to peer” calls do not pass the media server');
    await expect(alert).toContainText('“Record calls” is on (the Behaviour tab)');
    await expect(alert).not.toContainText('recordCalls');
    await expect(method).toHaveAttribute('aria-invalid', 'true');
    await expect(method).toHaveAccessibleDescription(/cannot be recorded/);
    await expect(page.getByTestId('settings-save')).toBeDisabled();
    await screenshot(page, testInfo, 'settings-p2p-conflict-en');

    // the other tab's field is marked too
    await page.getByRole('tab', { name: 'Behaviour' }).click();
    const record = page.getByLabel('Record calls');
    await expect(record).toBeChecked();
    await expect(record).toHaveAttribute('aria-invalid', 'true');
    await expect(record).toHaveAccessibleDescription(/“Record calls” is on while the call method is “Peer to peer” \(the General tab\)/);

    // in Arabic: the same, in Arabic labels
    await page.getByRole('tab', { name: 'General' }).click();
    await page.getByRole('banner').getByRole('button', { name: 'العربية' }).click();
    const arabic = page.getByRole('alert').filter({ hasText: 'لا يمكن تسجيلها' });
    await expect(arabic).toContainText('«اتصال مباشر»');
    await expect(arabic).toContainText('«تسجيل المكالمات» مفعّل (تبويب السلوك)');
    await screenshot(page, testInfo, 'settings-p2p-conflict-ar');

    // act: the way out, by keyboard
    await page.getByRole('button', { name: 'أوقف التسجيل واستخدم الاتصال المباشر' }).focus();
    await page.keyboard.press('Enter');

    // assert: the message is gone, the fields are no longer marked, and the settings save
    await expect(arabic).toHaveCount(0);
    await expect(method).not.toHaveAttribute('aria-invalid', 'true');
    await page.getByTestId('settings-save').click();
    await expect(page.getByTestId('settings-message')).toBeVisible();
    const saved = await adminApi<Settings>('GET', '/admin/company');
    expect({ callMethod: saved.callMethod, recordCalls: saved.recordCalls }).toEqual({ callMethod: 'p2p', recordCalls: false });
  } finally {
    await closeAll(testInfo, admin);
    await adminApi('PUT', '/admin/company', { callMethod: original.callMethod, recordCalls: original.recordCalls });
  }
});
