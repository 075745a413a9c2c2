// How a welcome-form answer reads for the agent (labels in the console's language, values as text).
import type { CallDetails } from '@lobby/contracts';
import type { TFunction } from 'i18next';

export type CallAnswer = NonNullable<CallDetails['form']>['answers'][number];

export function answerLabel(answer: CallAnswer, language: string): string {
  return language === 'ar' && answer.label_ar ? answer.label_ar : answer.label || answer.key;
}

export function answerText(answer: CallAnswer, t: TFunction): string {
  const v = answer.value;
  if (typeof v === 'boolean') return t(v ? 'details.yes' : 'details.no');
  if (Array.isArray(v)) return v.join(', ');
  if ((answer.type === 'stars' || answer.type === 'emojies') && typeof v === 'number') return t('details.outOfFive', { value: v });
  return String(v);
}

/** An OpenStreetMap link centred on the guest's position. */
export function mapLink(location: { latitude: string; longitude: string }): string {
  const { latitude: lat, longitude: lon } = location;
  return `https://www.openstreetmap.org/?mlat=${encodeURIComponent(lat)}&mlon=${encodeURIComponent(lon)}#map=15/${encodeURIComponent(lat)}/${encodeURIComponent(lon)}`;
}
