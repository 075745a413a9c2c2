import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as Tabs from '@radix-ui/react-tabs';
import ArrowUp from 'lucide-react/icons/arrow-up';
import ArrowDown from 'lucide-react/icons/arrow-down';
import Plus from 'lucide-react/icons/plus';
import Save from 'lucide-react/icons/save';
import Trash from 'lucide-react/icons/trash-2';
import { createForm, deleteForm, getCompany, listForms, putCompany, updateForm, type FieldType, type FormDefinition, type FormInput } from '../../api/admin.ts';
import { AdminLayout } from './AdminLayout.tsx';
import { errorText, useAsync } from './useAsync.ts';
import styles from './Admin.module.css';
import tabStyles from './Tabs.module.css';
import { Button } from '@lobby/ui';

type Kind = 'welcome' | 'rating';
type Field = FormInput['fields'][number];

const TYPES: FieldType[] = ['text', 'email', 'tel', 'number', 'textarea', 'select', 'checkbox', 'stars', 'emojies'];
const WITH_OPTIONS: FieldType[] = ['select', 'checkbox'];

/** A field key from its label: letters, digits and _; starts with a letter; unique in the form. */
export function keyFor(label: string, taken: string[]): string {
  let base = label
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^[^A-Za-z]+|_+$/g, '')
    .slice(0, 40);
  if (!base) base = 'field';
  let key = base;
  for (let n = 2; taken.includes(key); n += 1) key = `${base}_${n}`;
  return key;
}

/** Options as lines `label` or `label | arabic label`; values come from the labels. */
function optionsToText(options: Field['options']): string {
  return (options ?? []).map((o) => (o.label_ar ? `${o.label} | ${o.label_ar}` : o.label)).join('\n');
}
function textToOptions(text: string): NonNullable<Field['options']> {
  const seen: string[] = [];
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((line) => {
      const [label = '', ar] = line.split('|').map((x) => x.trim());
      const value = keyFor(label, seen);
      seen.push(value);
      return ar ? { value, label, label_ar: ar } : { value, label };
    });
}

/** Keys the builder made up (`field`, `field_2`, …) follow the label until the admin writes one. */
const AUTO_KEY = /^field(_\d+)?$/;

function FieldEditor({
  field,
  index,
  count,
  otherKeys,
  update,
  move,
  remove,
}: {
  field: Field;
  index: number;
  count: number;
  otherKeys: string[];
  update: (f: Field) => void;
  move: (d: -1 | 1) => void;
  remove: () => void;
}) {
  const { t } = useTranslation('admin');
  const id = `field-${index}`;
  const [optionsText, setOptionsText] = useState(optionsToText(field.options));
  return (
    <li className={styles.card} style={{ marginBlockEnd: 10, padding: 14 }} data-testid="form-field" data-key={field.key}>
      <div className={styles.grid2}>
        <div className={styles.field}>
          <label className={styles.label} htmlFor={`${id}-label`}>
            {t('forms.label')}
          </label>
          <input id={`${id}-label`} className={styles.input} value={field.label} maxLength={500} onChange={(e) =>
              update({ ...field, label: e.target.value, ...(AUTO_KEY.test(field.key) || field.key === keyFor(field.label, otherKeys) ? { key: keyFor(e.target.value || 'field', otherKeys) } : {}) })
            }
            data-testid="field-label"
          />
        </div>
        <div className={styles.field}>
          <label className={styles.label} htmlFor={`${id}-label-ar`}>
            {t('forms.labelAr')}
          </label>
          <input id={`${id}-label-ar`} className={styles.input} dir="rtl" lang="ar" value={field.label_ar ?? ''} maxLength={500} onChange={(e) => update({ ...field, label_ar: e.target.value })} />
        </div>
        <div className={styles.field}>
          <label className={styles.label} htmlFor={`${id}-type`}>
            {t('forms.type')}
          </label>
          <select id={`${id}-type`} className={styles.select} value={field.type} onChange={(e) => update({ ...field, type: e.target.value as FieldType })} data-testid="field-type">
            {TYPES.map((ty) => (
              <option key={ty} value={ty}>
                {t(`forms.types.${ty}`)}
              </option>
            ))}
          </select>
        </div>
        <div className={styles.field}>
          <label className={styles.label} htmlFor={`${id}-key`}>
            {t('forms.key')}
          </label>
          <input id={`${id}-key`} className={styles.input} dir="ltr" value={field.key} maxLength={64} pattern="[A-Za-z][A-Za-z0-9_]*" onChange={(e) => update({ ...field, key: e.target.value })} />
        </div>
      </div>
      {WITH_OPTIONS.includes(field.type) ? (
        <div className={styles.field} style={{ marginBlockStart: 10 }}>
          <label className={styles.label} htmlFor={`${id}-options`}>
            {t('forms.options')}
          </label>
          <textarea
            id={`${id}-options`}
            className={styles.textarea}
            value={optionsText}
            onChange={(e) => {
              setOptionsText(e.target.value);
              update({ ...field, options: textToOptions(e.target.value) });
            }}
            aria-describedby={`${id}-options-hint`}
            data-testid="field-options"
          />
          <span id={`${id}-options-hint`} className={styles.hint}>
            {t('forms.optionsHint')}
          </span>
        </div>
      ) : null}
      <div className={styles.actions} style={{ marginBlockStart: 10, justifyContent: 'space-between' }}>
        <label className={styles.check}>
          <input type="checkbox" checked={field.required} onChange={(e) => update({ ...field, required: e.target.checked })} data-testid="field-required" />
          {t('forms.required')}
        </label>
        <span className={styles.rowActions}>
          <button type="button" className={styles.smallButton} disabled={index === 0} onClick={() => move(-1)} aria-label={t('forms.moveUp', { name: field.label || field.key })}>
            <ArrowUp size={16} aria-hidden="true" />
          </button>
          <button type="button" className={styles.smallButton} disabled={index === count - 1} onClick={() => move(1)} aria-label={t('forms.moveDown', { name: field.label || field.key })}>
            <ArrowDown size={16} aria-hidden="true" />
          </button>
          <button type="button" className={`${styles.smallButton} ${styles.danger}`} onClick={remove} aria-label={t('common.deleteNamed', { name: field.label || field.key })}>
            <Trash size={16} aria-hidden="true" />
          </button>
        </span>
      </div>
    </li>
  );
}

function FormEditor({ kind, form, inUse, notice, onSaved }: { kind: Kind; form: FormDefinition | null; inUse: boolean; notice: string | null; onSaved: (text: string) => void }) {
  const { t } = useTranslation('admin');
  const [title, setTitle] = useState(form?.title ?? '');
  const [titleAr, setTitleAr] = useState(form?.title_ar ?? '');
  const [fields, setFields] = useState<Field[]>(() => [...(form?.fields ?? [])].sort((a, b) => a.order - b.order));
  const [use, setUse] = useState(inUse);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(notice ? { ok: true, text: notice } : null);

  const set = (i: number, f: Field) => setFields((xs) => xs.map((x, j) => (j === i ? f : x)));
  const move = (i: number, d: -1 | 1) =>
    setFields((xs) => {
      const next = [...xs];
      const [f] = next.splice(i, 1);
      if (f) next.splice(i + d, 0, f);
      return next;
    });
  const add = () =>
    setFields((xs) => [...xs, { key: keyFor(t('forms.newField'), xs.map((x) => x.key)), type: kind === 'rating' ? 'stars' : 'text', label: '', required: false, order: xs.length }]);

  async function save() {
    setMessage(null);
    const body: FormInput = {
      kind,
      title,
      ...(titleAr ? { title_ar: titleAr } : {}),
      fields: fields.map((f, order) => {
        const key = f.key || keyFor(f.label, fields.map((x) => x.key));
        const base = { key, type: f.type, label: f.label, required: f.required, order, ...(f.label_ar ? { label_ar: f.label_ar } : {}) };
        return WITH_OPTIONS.includes(f.type) ? { ...base, options: f.options ?? [] } : base;
      }),
    };
    try {
      const saved = form ? await updateForm(form.id, body) : await createForm(body);
      await putCompany(kind === 'welcome' ? { welcomeForm: use } : use ? { showRatingPage: true, advanceRating: true, ratingForm: { id: saved.id } } : { advanceRating: false });
      // The page reloads the forms and remounts this editor; the notice survives through the page.
      onSaved(t('forms.saved'));
    } catch (e) {
      setMessage({ ok: false, text: errorText(e) });
    }
  }

  return (
    <div className={styles.card} data-testid={`form-editor-${kind}`}>
      <div className={styles.grid2}>
        <div className={styles.field}>
          <label className={styles.label} htmlFor={`${kind}-title`}>
            {t('forms.title')}
          </label>
          <input id={`${kind}-title`} className={styles.input} value={title} maxLength={500} onChange={(e) => setTitle(e.target.value)} data-testid="form-title" />
        </div>
        <div className={styles.field}>
          <label className={styles.label} htmlFor={`${kind}-title-ar`}>
            {t('forms.titleAr')}
          </label>
          <input id={`${kind}-title-ar`} className={styles.input} dir="rtl" lang="ar" value={titleAr} maxLength={500} onChange={(e) => setTitleAr(e.target.value)} />
        </div>
      </div>
      <label className={styles.check} style={{ marginBlock: 8 }}>
        <input type="checkbox" checked={use} onChange={(e) => setUse(e.target.checked)} data-testid="form-in-use" />
        {t(`forms.use.${kind}`)}
      </label>
      <h3 style={{ marginBlock: 12, fontSize: '1rem' }}>{t('forms.fields')}</h3>
      {fields.length === 0 ? <p className={styles.empty}>{t('forms.noFields')}</p> : null}
      <ol style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {fields.map((f, i) => (
          <FieldEditor key={i} field={f} index={i} count={fields.length} otherKeys={fields.filter((_, j) => j !== i).map((x) => x.key)} update={(x) => set(i, x)} move={(d) => move(i, d)} remove={() => setFields((xs) => xs.filter((_, j) => j !== i))} />
        ))}
      </ol>
      <div className={styles.actions} style={{ marginBlockStart: 10 }}>
        <button type="button" className={styles.smallButton} onClick={add} data-testid="add-field">
          <Plus size={16} aria-hidden="true" />
          {t('forms.addField')}
        </button>
        <Button icon={<Save size={18} />} onClick={() => void save()} data-testid="form-save">
          {t('common.save')}
        </Button>
        {form ? (
          <button
            type="button"
            className={`${styles.smallButton} ${styles.danger}`}
            onClick={() => {
              if (!window.confirm(t('forms.confirmDelete'))) return;
              void deleteForm(form.id)
                .then(() => onSaved(t('forms.deleted')))
                .catch((e: unknown) => setMessage({ ok: false, text: errorText(e) }));
            }}
          >
            <Trash size={16} aria-hidden="true" />
            {t('forms.delete')}
          </button>
        ) : null}
        {message ? (
          <span role="status" className={message.ok ? styles.success : styles.danger} data-testid="form-message">
            {message.text}
          </span>
        ) : null}
      </div>
    </div>
  );
}

/** Welcome and rating form builders: fields, types, required, order, Arabic labels. */
export function FormsPage() {
  const { t } = useTranslation('admin');
  const data = useAsync(async () => {
    const [forms, company] = await Promise.all([listForms(), getCompany()]);
    return { forms, company };
  });
  const [version, setVersion] = useState(0);
  const [notice, setNotice] = useState<{ kind: Kind; text: string } | null>(null);
  const saved = (kind: Kind) => (text: string) => {
    setNotice({ kind, text });
    data.reload();
  };
  useEffect(() => {
    if (data.data) setVersion((v) => v + 1);
  }, [data.data]);
  const d = data.data;
  const formOf = (kind: Kind) => d?.forms.find((f) => f.kind === kind) ?? null;
  return (
    <AdminLayout screen="admin-forms">
      <div className={styles.headline}>
        <div>
          <h1>{t('forms.pageTitle')}</h1>
          <p className={styles.lead}>{t('forms.lead')}</p>
        </div>
      </div>
      {data.error ? <p className={styles.error}>{data.error}</p> : null}
      {d ? (
        <Tabs.Root defaultValue="welcome" className={tabStyles.root}>
          <Tabs.List className={tabStyles.list} aria-label={t('forms.pageTitle')}>
            <Tabs.Trigger value="welcome" className={tabStyles.trigger}>
              {t('forms.welcome')}
            </Tabs.Trigger>
            <Tabs.Trigger value="rating" className={tabStyles.trigger} data-testid="forms-tab-rating">
              {t('forms.rating')}
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="welcome">
            <FormEditor key={`w${version}`} kind="welcome" form={formOf('welcome')} inUse={d.company.welcomeForm} notice={notice?.kind === 'welcome' ? notice.text : null} onSaved={saved('welcome')} />
          </Tabs.Content>
          <Tabs.Content value="rating">
            <FormEditor
              key={`r${version}`}
              kind="rating"
              form={formOf('rating')}
              inUse={d.company.advanceRating && d.company.ratingForm !== null && d.company.ratingForm.id === formOf('rating')?.id}
              notice={notice?.kind === 'rating' ? notice.text : null}
              onSaved={saved('rating')}
            />
          </Tabs.Content>
        </Tabs.Root>
      ) : null}
    </AdminLayout>
  );
}
