/**
 * Every company setting the console edits reaches the guest app. An admin changes every field of
 * the settings editor through its controls — the field list is the editor's own (settingsFields.ts), so a
 * field added there is covered here too — saves once, and the guest app's source of truth,
 * GET /api/company/details (public, what the guest page reads), answers every new value. How each value
 * then shows on its guest screen is proven screen by screen in guest-screens.spec.ts and guest-a11y.spec.ts.
 */
import { expect, test, type Page } from '@playwright/test';
import { launchParticipant } from '../support/browser.ts';
import { BASE_URL, DEMO_ADMIN } from '../support/api.ts';
import { agentSignsIn, closeAll, screenshot } from '../support/journey.ts';
import { adminApi } from './routing-support.ts';
import { BEHAVIOUR, GENERAL, LOOK, MESSAGE_KEYS, WIDGET, type FieldSpec } from '../../apps/console/src/features/admin/settingsFields.ts';

type Settings = Record<string, unknown>;

/** A value for `spec` that differs from `current` and that the server accepts. */
function newValue(spec: FieldSpec, current: unknown, i: number): unknown {
  switch (spec.kind) {
    case 'bool':
      return current !== true;
    case 'select': {
      const option = spec.options.find((o) => o !== String(current)) ?? spec.options[0];
      return typeof current === 'number' ? Number(option) : option;
    }
    case 'color':
      return `#${(0x1a2b30 + i * 7).toString(16).padStart(6, '0')}`;
    case 'url':
      return `https://e2e.example/${spec.key}.png`;
    case 'lines':
      return ['https://e2e-site.example'];
    case 'number': {
      // a whole number inside the field's bounds that differs from the current one
      const value = spec.min + ((i + 1) % (spec.max - spec.min + 1));
      return value === current ? spec.min + ((i + 2) % (spec.max - spec.min + 1)) : value;
    }
    default:
      return `E2E ${spec.key} ${i}`;
  }
}

async function setField(page: Page, spec: FieldSpec, value: unknown): Promise<void> {
  const control = page.getByTestId(`setting-${spec.key}`);
  if (spec.kind === 'bool') await control.setChecked(value === true);
  else if (spec.kind === 'select') await control.selectOption(String(value));
  else if (spec.kind === 'lines') await control.fill((value as string[]).join('\n'));
  else await control.fill(String(value));
}

test('when an admin changes every company setting in the console, then the guest app reads every new value', async ({}, testInfo) => {
  test.slow(); // some fifty fields typed one by one
  const original = await adminApi<Settings>('GET', '/admin/company');
  const groups: Array<[string, FieldSpec[]]> = [
    ['general', GENERAL],
    ['messages', MESSAGE_KEYS.flatMap((k): FieldSpec[] => [{ key: k, kind: 'textarea' }, { key: `${k}_ar` as FieldSpec['key'], kind: 'textarea' }])],
    ['look', LOOK],
    ['behaviour', BEHAVIOUR],
    ['widget', WIDGET],
  ];
  const expected: Settings = {};
  const admin = await launchParticipant('admin', { viewport: { width: 1280, height: 900 } });
  try {
    // arrange: the admin on the settings editor
    await agentSignsIn(admin.page, DEMO_ADMIN);
    await admin.page.getByTestId('nav-admin').click();
    await expect(admin.page.locator('[data-screen="admin-settings"]')).toBeVisible();

    // act: every field of every tab gets a new value, then one save
    let i = 0;
    for (const [tab, fields] of groups) {
      await admin.page.getByTestId(`settings-tab-${tab}`).click();
      for (const spec of fields) {
        const value = newValue(spec, original[spec.key], i++);
        expected[spec.key] = value;
        await setField(admin.page, spec, value);
      }
    }
    await screenshot(admin.page, testInfo, 'console-settings-all-behaviour');
    await admin.page.getByTestId('settings-save').click();
    await expect(admin.page.getByTestId('settings-message')).toBeVisible();

    // assert: the guest app's company details carry every new value
    const response = await fetch(`${BASE_URL}/api/company/details?companyId=18`);
    expect(response.status).toBe(200);
    const details = ((await response.json()) as { data: Settings }).data;
    const keys = Object.keys(expected);
    expect(keys.length, 'the editor has its fields').toBeGreaterThan(40);
    const differing = keys.filter((k) => JSON.stringify(details[k]) !== JSON.stringify(expected[k]));
    expect(differing, 'settings whose new value the guest app does not read').toEqual([]);
  } finally {
    await adminApi('PUT', '/admin/company', Object.fromEntries(Object.keys(expected).map((k) => [k, original[k]])));
    await closeAll(testInfo, admin);
  }
});
