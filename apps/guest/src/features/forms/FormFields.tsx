// Fields of a company form (docs/api.md "Forms"), shared by the welcome form and the advanced rating.
import { useId } from 'react';
import { useTranslation } from '../../i18n/index.ts';
import Star from 'lucide-react/icons/star';
import { Face } from './faces.tsx';
import type { FormField } from '../../api/company.ts';
import type { FormAnswers } from '../../api/guest.ts';
import styles from './FormFields.module.css';


function label(field: { label: string; label_ar?: string | null }, language: string): string {
  return (language === 'ar' && field.label_ar) || field.label;
}

export function FormFields({
  fields,
  language,
  answers,
  onChange,
}: {
  fields: FormField[];
  language: string;
  answers: FormAnswers;
  onChange: (key: string, value: FormAnswers[string]) => void;
}) {
  const { t } = useTranslation('journey');
  const base = useId();
  return (
    <div className={styles.fields}>
      {[...fields]
        .sort((a, b) => a.order - b.order)
        .map((field) => {
          const id = `${base}-${field.key}`;
          const text = label(field, language);
          const value = answers[field.key];
          const title = (
            <>
              {text}
              {field.required ? <span className={styles.required}> ({t('form.required')})</span> : null}
            </>
          );
          if (field.type === 'checkbox') {
            return (
              <label key={field.key} className={styles.check}>
                <input type="checkbox" checked={value === true} required={field.required} onChange={(e) => onChange(field.key, e.target.checked)} data-field={field.key} />
                <span>{title}</span>
              </label>
            );
          }
          if (field.type === 'stars' || field.type === 'emojies') {
            return (
              <fieldset key={field.key} className={styles.scale}>
                <legend>{title}</legend>
                <div className={styles.scaleOptions}>
                  {[1, 2, 3, 4, 5].map((n) => (
                    <label key={n} className={styles.scaleOption} data-active={typeof value === 'number' && n <= value}>
                      <input type="radio" name={id} value={n} required={field.required} checked={value === n} onChange={() => onChange(field.key, n)} className="visually-hidden" data-field={field.key} />
                      <span className="visually-hidden">{n}</span>
                      {field.type === 'stars' ? <Star size={28} aria-hidden="true" /> : <Face score={n} size={28} />}
                    </label>
                  ))}
                </div>
              </fieldset>
            );
          }
          return (
            <div key={field.key} className={styles.field}>
              <label htmlFor={id}>{title}</label>
              {field.type === 'textarea' ? (
                <textarea id={id} rows={3} required={field.required} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(field.key, e.target.value)} data-field={field.key} />
              ) : field.type === 'select' ? (
                <select id={id} required={field.required} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(field.key, e.target.value)} data-field={field.key}>
                  <option value="">{t('form.choose')}</option>
                  {(field.options ?? []).map((o) => (
                    <option key={o.value} value={o.value}>
                      {label(o, language)}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  id={id}
                  type={field.type}
                  required={field.required}
                  autoComplete={field.type === 'email' ? 'email' : field.type === 'tel' ? 'tel' : undefined}
                  value={typeof value === 'string' || typeof value === 'number' ? String(value) : ''}
                  onChange={(e) => onChange(field.key, field.type === 'number' ? Number(e.target.value) : e.target.value)}
                  data-field={field.key}
                />
              )}
            </div>
          );
        })}
    </div>
  );
}
