import { describe, expect, it } from 'vitest';
import en from '../src/strings/en.json';
import ar from '../src/strings/ar.json';

type Tree = { [key: string]: string | Tree };

/** Every string of a catalogue, by its dotted key. */
function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') out.set(prefix + key, value);
    else for (const [k, v] of flatten(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

const english = flatten(en);
const arabic = flatten(ar);
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

/** The English key a catalogue key stands for: a plural form ('chat.unread_two') counts as its base's `_other`. */
const PLURAL = /_(zero|one|two|few|many|other)$/;
const englishOf = (key: string) => (english.has(key) ? key : key.replace(PLURAL, '_other'));

describe('the ui strings (src/strings, namespace ui)', () => {
  it('when a component of this package or an in-call screen reads a ui key, then it exists in English and in Arabic', () => {
    // the keys the components build at run time, and a few the apps read
    for (const key of ['chat.chat', 'chat.closeChat', 'chat.unread_one', 'chat.unread_other', 'networkQuality.details', 'language.label', 'call.hangup']) {
      expect(english.get(key), key).toBeTruthy();
      expect(arabic.get(key), key).toBeTruthy();
    }
    for (const level of ['good', 'fair', 'poor', 'unknown']) expect(arabic.get(`networkQuality.${level}`)).toBeTruthy();
    for (const key of english.keys()) expect(arabic.has(key), key).toBe(true);
    // Arabic has more plural forms than English; nothing else is Arabic only
    for (const key of arabic.keys()) expect(english.has(englishOf(key)), key).toBe(true);
  });

  it('when a string counts, then Arabic has each of its plural forms (two messages is not "2 messages")', () => {
    const forms = new Intl.PluralRules('ar').resolvedOptions().pluralCategories;
    const counted = [...english.keys()].filter((key) => key.endsWith('_other'));
    expect(counted).toContain('chat.unread_other');
    for (const key of counted) for (const form of forms) expect(arabic.get(key.replace(/_other$/, `_${form}`)), `${key} ${form}`).toBeTruthy();
  });

  it('when a string is in English, then its Arabic is written in Arabic and takes the same values', () => {
    for (const [key, translated] of arabic) {
      const text = english.get(englishOf(key)) ?? '';
      // the language switch names each language in its own script
      if (key !== 'language.en') expect(translated, key).toMatch(/[\u0600-\u06FF]/);
      // a plural form for none, one or two may spell the number out ("رسالتان"): it takes no other value
      if (/_(zero|one|two)$/.test(key)) expect(placeholders(text), key).toEqual(expect.arrayContaining(placeholders(translated)));
      else expect(placeholders(translated), key).toEqual(placeholders(text));
    }
  });
});
