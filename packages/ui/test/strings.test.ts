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

describe('the ui strings (src/strings, namespace ui)', () => {
  it('when a component of this package or an in-call screen reads a ui key, then it exists in English and in Arabic', () => {
    // the keys the components build at run time, and a few the apps read
    for (const key of ['chat.chat', 'chat.closeChat', 'chat.unread_one', 'chat.unread_other', 'networkQuality.details', 'language.label', 'call.hangup']) {
      expect(english.get(key), key).toBeTruthy();
      expect(arabic.get(key), key).toBeTruthy();
    }
    for (const level of ['good', 'fair', 'poor', 'unknown']) expect(arabic.get(`networkQuality.${level}`)).toBeTruthy();
    expect([...arabic.keys()].sort()).toEqual([...english.keys()].sort());
  });

  it('when a string is in English, then its Arabic is written in Arabic and takes the same values', () => {
    for (const [key, text] of english) {
      const translated = arabic.get(key) ?? '';
      expect(translated, key).not.toBe('');
      // the language switch names each language in its own script
      if (key !== 'language.en') expect(translated, key).toMatch(/[\u0600-\u06FF]/);
      // a plural form for one may spell the number out ("رسالة واحدة"): it takes no other value
      if (/_(zero|one|two)$/.test(key)) expect(placeholders(text), key).toEqual(expect.arrayContaining(placeholders(translated)));
      else expect(placeholders(translated), key).toEqual(placeholders(text));
    }
  });
});
