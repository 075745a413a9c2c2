import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { answerLabel, answerText, mapLink, type CallAnswer } from '../src/features/queue/answerText.ts';

const t = ((key: string, options?: { value?: number }) => (options?.value !== undefined ? `${key}:${options.value}` : key)) as unknown as TFunction;
const answer = (a: Partial<CallAnswer>): CallAnswer => ({ key: 'k', type: 'text', label: 'Label', label_ar: null, value: 'v', ...a });

describe('queue entry answers', () => {
  it('when the console is Arabic and the field has an Arabic label, then that label; else the English one', () => {
    expect(answerLabel(answer({ label_ar: 'الاسم' }), 'ar')).toBe('الاسم');
    expect(answerLabel(answer({ label_ar: null }), 'ar')).toBe('Label');
    expect(answerLabel(answer({ label_ar: 'الاسم' }), 'en')).toBe('Label');
  });

  it('when values are booleans, lists or ratings, then they read as words, a list and "n of 5"', () => {
    expect(answerText(answer({ type: 'checkbox', value: true }), t)).toBe('details.yes');
    expect(answerText(answer({ type: 'checkbox', value: ['a', 'b'] }), t)).toBe('a, b');
    expect(answerText(answer({ type: 'stars', value: 4 }), t)).toBe('details.outOfFive:4');
    expect(answerText(answer({ type: 'number', value: 42 }), t)).toBe('42');
  });

  it('when the guest shared a position, then the map link is centred on it', () => {
    expect(mapLink({ latitude: '24.7136', longitude: '46.6753' })).toBe(
      'https://www.openstreetmap.org/?mlat=24.7136&mlon=46.6753#map=15/24.7136/46.6753',
    );
  });
});
