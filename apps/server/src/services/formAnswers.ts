import type { Answers, FormField } from '@lobby/contracts';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{1,63}$/;
const TEL = /^\+?[0-9 ().-]{3,32}$/;

const MAX_TEXT = 2000;

function empty(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

function checkOne(f: FormField, v: unknown): string | null {
  const options = f.options?.map((o) => o.value) ?? [];
  if (typeof v === 'string' && v.length > MAX_TEXT) return `must be at most ${MAX_TEXT} characters`;
  switch (f.type) {
    case 'text':
    case 'textarea':
      return typeof v === 'string' ? null : 'must be a string';
    case 'email':
      return typeof v === 'string' && EMAIL.test(v) ? null : 'must be an email address';
    case 'tel':
      return typeof v === 'string' && TEL.test(v) ? null : 'must be a phone number';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) ? null : 'must be a number';
    case 'select':
      return typeof v === 'string' && options.includes(v) ? null : `must be one of ${options.join(', ')}`;
    case 'checkbox':
      if (options.length === 0) return typeof v === 'boolean' ? null : 'must be true or false';
      return Array.isArray(v) && v.every((x) => typeof x === 'string' && options.includes(x)) && new Set(v).size === v.length ? null : `must be a list of ${options.join(', ')}`;
    case 'stars':
    case 'emojies':
      return typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 5 ? null : 'must be an integer from 1 to 5';
  }
}

/** Check answers against a form definition; null when valid, else a message naming the field (`answers.<key>: …`). */
export function checkAnswers(fields: FormField[], answers: Answers): string | null {
  const byKey = new Map(fields.map((f) => [f.key, f]));
  for (const key of Object.keys(answers)) {
    if (!byKey.has(key)) return `answers.${key}: not a field of this form`;
  }
  for (const f of fields) {
    const v = answers[f.key];
    if (empty(v)) {
      // An unticked required checkbox is "false": missing, not an answer.
      if (f.required) return `answers.${f.key}: required`;
      continue;
    }
    if (f.required && f.type === 'checkbox' && v === false) return `answers.${f.key}: required`;
    const problem = checkOne(f, v);
    if (problem) return `answers.${f.key}: ${problem}`;
  }
  return null;
}

/** Problems of a form definition that the schema cannot express; null when fine. */
export function checkFormFields(fields: FormField[]): string | null {
  const seen = new Set<string>();
  for (const [i, f] of fields.entries()) {
    if (seen.has(f.key)) return `fields/${i}/key: duplicate key ${f.key}`;
    seen.add(f.key);
    const hasOptions = (f.options?.length ?? 0) > 0;
    if (f.type === 'select' && !hasOptions) return `fields/${i}/options: a select needs options`;
    if (hasOptions && f.type !== 'select' && f.type !== 'checkbox') return `fields/${i}/options: only select and checkbox take options`;
    if (new Set(f.options?.map((o) => o.value)).size !== (f.options?.length ?? 0)) return `fields/${i}/options: duplicate value`;
  }
  return null;
}
