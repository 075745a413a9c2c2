import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { NetworkQuality } from '@lobby/ui';
import { Translator } from '../src/i18n/translator.ts';
import { translationHook } from '../src/i18n/useTranslation.ts';
import { applyLanguage, ensureLanguage, i18n } from '../src/i18n/index.ts';

// The guest's own translation layer (src/i18n/translator.ts), in place of i18next.
const catalogues = () => ({
  en: {
    translation: {
      greet: 'Hello {{name}}, {{ name }} again',
      onlyEnglish: 'English only',
      item_one: '{{count}} item',
      item_other: '{{count}} items',
    },
    ui: { hangup: 'Hang up' },
  },
  ar: {
    translation: {
      greet: 'مرحبا {{name}}',
      item_zero: 'zero:{{count}}',
      item_one: 'one:{{count}}',
      item_two: 'two:{{count}}',
      item_few: 'few:{{count}}',
      item_many: 'many:{{count}}',
      item_other: 'other:{{count}}',
    },
    ui: { hangup: 'إنهاء' },
  },
});

afterEach(() => {
  cleanup();
  applyLanguage('en');
});

describe('translator', () => {
  it('when Arabic counts 0, 1, 2, 3, 11 and 100, then each takes its own plural form', () => {
    const i18n = new Translator({ resources: catalogues(), language: 'ar', fallback: 'en' });
    expect([0, 1, 2, 3, 11, 100].map((count) => i18n.t('item', { count }))).toEqual([
      'zero:0',
      'one:1',
      'two:2',
      'few:3',
      'many:11',
      'other:100',
    ]);
  });

  it('when English counts 1 and 5, then it takes the one and other forms', () => {
    const i18n = new Translator({ resources: catalogues(), language: 'en', fallback: 'en' });
    expect(i18n.t('item', { count: 1 })).toBe('1 item');
    expect(i18n.t('item', { count: 5 })).toBe('5 items');
  });

  it('when a string has {{placeholders}}, then every one takes its value and a missing value is empty', () => {
    const i18n = new Translator({ resources: catalogues(), language: 'en', fallback: 'en' });
    expect(i18n.t('greet', { name: 'Sara' })).toBe('Hello Sara, Sara again');
    expect(i18n.t('greet')).toBe('Hello ,  again');
  });

  it('when Arabic lacks a string, then the English one shows, and the key when English lacks it too', () => {
    const i18n = new Translator({ resources: catalogues(), language: 'ar', fallback: 'en' });
    expect(i18n.t('onlyEnglish')).toBe('English only');
    expect(i18n.t('nowhere.at.all')).toBe('nowhere.at.all');
    expect(i18n.t('ui:nowhere')).toBe('nowhere');
  });

  it('when a key names its namespace, or the hook lists several, then the string comes from that namespace', () => {
    const i18n = new Translator({ resources: catalogues(), language: 'ar', fallback: 'en' });
    expect(i18n.t('ui:hangup')).toBe('إنهاء');
    expect(i18n.t('hangup', {}, ['translation', 'ui'])).toBe('إنهاء');
    expect(i18n.t('greet', { name: 'سارة', lng: 'en' })).toBe('Hello سارة, سارة again');
  });

  it('when the language switches, then a component using the hook renders in the new language', () => {
    const i18n = new Translator({ resources: catalogues(), language: 'en', fallback: 'en' });
    const useTranslation = translationHook(i18n);
    let renders = 0;
    function Label() {
      const { t } = useTranslation();
      renders++;
      return <p data-testid="label">{(t as (key: string, o?: object) => string)('item', { count: 2 })}</p>;
    }
    render(<Label />);
    expect(screen.getByTestId('label').textContent).toBe('2 items');
    const before = renders;
    act(() => i18n.changeLanguage('ar'));
    expect(screen.getByTestId('label').textContent).toBe('two:2');
    expect(renders).toBeGreaterThan(before);
    expect(i18n.dir()).toBe('rtl');
    expect(i18n.dir('en')).toBe('ltr');
  });

  it('when a catalogue arrives after the switch, then the component renders its strings', () => {
    const { ar, en } = catalogues();
    const i18n = new Translator({ resources: { en }, language: 'en', fallback: 'en' });
    const useTranslation = translationHook(i18n);
    function Hangup() {
      const { t } = useTranslation('ui' as never);
      return <p data-testid="hangup">{(t as (key: string) => string)('hangup')}</p>;
    }
    render(<Hangup />);
    act(() => i18n.changeLanguage('ar'));
    expect(screen.getByTestId('hangup').textContent).toBe('Hang up');
    expect(i18n.hasResourceBundle('ar', 'ui')).toBe(false);
    act(() => i18n.addResourceBundle('ar', 'ui', ar.ui));
    expect(i18n.hasResourceBundle('ar', 'ui')).toBe(true);
    expect(screen.getByTestId('hangup').textContent).toBe('إنهاء');
  });

  it("when the guest page turns Arabic, then @lobby/ui's components speak Arabic and the page is rtl", async () => {
    const quality = { level: 'good', lossPercent: 0, rttMs: 40, jitterMs: 2 } as const;
    render(<NetworkQuality quality={quality} />);
    expect(screen.getByTestId('network-quality').textContent).toContain('Network: good');
    await ensureLanguage('ar');
    act(() => applyLanguage('ar'));
    expect(document.documentElement.dir).toBe('rtl');
    expect(document.documentElement.lang).toBe('ar');
    expect(screen.getByTestId('network-quality').textContent).toContain('الشبكة: جيدة');
    expect(i18n.t('ui:chat.unread', { count: 0 })).toBe('لا رسائل غير مقروءة');
    expect(i18n.t('ui:chat.unread', { count: 2 })).toBe('رسالتان غير مقروءتين');
    expect(i18n.t('ui:chat.unread', { count: 3 })).toBe('3 رسائل غير مقروءة');
  });
});
