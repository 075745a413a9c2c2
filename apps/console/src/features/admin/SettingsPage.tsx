import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as Tabs from '@radix-ui/react-tabs';
import Save from 'lucide-react/icons/save';
import Undo from 'lucide-react/icons/undo-2';
import { getCompany, putCompany, type AdminCompany, type AdminCompanyUpdate } from '../../api/admin.ts';
import { useConsoleStore, useConsoleStoreApi } from '../../state/store.ts';
import { AdminLayout } from './AdminLayout.tsx';
import { GuestPreview } from './GuestPreview.tsx';
import { WidgetSettings } from './WidgetSettings.tsx';
import { BEHAVIOUR, GENERAL, LOOK, MESSAGE_KEYS, WIDGET, changedKeys, p2pRecordingConflict, type FieldSpec, type SettingKey } from './settingsFields.ts';
import { P2PRecordingConflict, conflictMessageId } from './P2PRecordingConflict.tsx';
import { errorText, useAsync } from './useAsync.ts';
import styles from './Admin.module.css';
import tabStyles from './Tabs.module.css';
import { Button, Spinner } from '@lobby/ui';

type Draft = AdminCompany;

function Field({ spec, draft, set, problem }: { spec: FieldSpec; draft: Draft; set: (k: SettingKey, v: unknown) => void; problem?: string }) {
  const { t } = useTranslation('admin');
  const id = `setting-${spec.key}`;
  const label = t(`settings.field.${spec.key}`, { defaultValue: spec.key });
  const raw: unknown = draft[spec.key];
  // a field in conflict with another: marked, and its message read with it
  const invalid = problem ? { 'aria-invalid': true, 'aria-describedby': problem } : {};
  if (spec.kind === 'lines') {
    const lines = Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string') : [];
    return (
      <div className={styles.field} style={{ gridColumn: '1 / -1' }}>
        <label className={styles.label} htmlFor={id}>
          {label}
        </label>
        <textarea
          id={id}
          className={styles.textarea}
          dir="ltr"
          defaultValue={lines.join('\n')}
          onChange={(e) =>
            set(
              spec.key,
              e.target.value
                .split('\n')
                .map((l) => l.trim())
                .filter(Boolean),
            )
          }
          aria-describedby={`${id}-hint`}
          data-testid={id}
        />
        <span id={`${id}-hint`} className={styles.hint}>
          {t(`settings.hint.${spec.key}`, { defaultValue: '' })}
        </span>
      </div>
    );
  }
  const value = typeof raw === 'string' || typeof raw === 'boolean' || typeof raw === 'number' ? raw : '';
  if (spec.kind === 'bool') {
    return (
      <label className={styles.check} htmlFor={id}>
        <input id={id} type="checkbox" checked={value === true} onChange={(e) => set(spec.key, e.target.checked)} data-testid={id} {...invalid} />
        {label}
      </label>
    );
  }
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      {spec.kind === 'select' ? (
        <select id={id} className={styles.select} value={String(value)} onChange={(e) => set(spec.key, typeof raw === 'number' ? Number(e.target.value) : e.target.value)} data-testid={id} {...invalid}>
          {spec.options.map((o) => (
            <option key={o} value={o}>
              {t(`settings.option.${o}`, { defaultValue: o })}
            </option>
          ))}
        </select>
      ) : spec.kind === 'textarea' ? (
        <textarea id={id} className={styles.textarea} value={String(value ?? '')} onChange={(e) => set(spec.key, e.target.value)} data-testid={id} />
      ) : spec.kind === 'color' ? (
        <span className={styles.colorRow}>
          <input
            type="color"
            className={styles.colorSwatch}
            aria-label={t('settings.pickColor', { name: label })}
            value={/^#[0-9a-f]{6}$/i.test(String(value)) ? String(value) : '#000000'}
            onChange={(e) => set(spec.key, e.target.value)}
          />
          <input id={id} className={styles.input} value={String(value ?? '')} maxLength={32} onChange={(e) => set(spec.key, e.target.value)} data-testid={id} dir="ltr" />
        </span>
      ) : spec.kind === 'number' ? (
        <>
          <input
            id={id}
            className={styles.input}
            type="number"
            inputMode="numeric"
            min={spec.min}
            max={spec.max}
            step={1}
            value={String(value ?? '')}
            // an empty or partial entry stays as typed; the server answers 400 naming the field when out of bounds
            onChange={(e) => set(spec.key, e.target.value === '' ? '' : Number(e.target.value))}
            aria-describedby={`${id}-hint`}
            data-testid={id}
          />
          <span id={`${id}-hint`} className={styles.hint}>
            {t(`settings.hint.${spec.key}`, { defaultValue: '', min: spec.min, max: spec.max })}
          </span>
        </>
      ) : (
        <input
          id={id}
          className={styles.input}
          type={spec.kind === 'url' ? 'url' : 'text'}
          dir={spec.kind === 'url' ? 'ltr' : undefined}
          value={String(value ?? '')}
          onChange={(e) => set(spec.key, e.target.value)}
          data-testid={id}
        />
      )}
    </div>
  );
}

/** Every company setting, grouped (general, messages with Arabic variants, look, behaviour), with a live preview. */
export function SettingsPage() {
  const { t } = useTranslation('admin');
  const loaded = useAsync(getCompany);
  const [saved, setSaved] = useState<Draft | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [previewVersion, setPreviewVersion] = useState(0);
  const storeApi = useConsoleStoreApi();
  const companyName = useConsoleStore((s) => s.companyName);

  useEffect(() => {
    if (loaded.data) {
      setSaved(loaded.data);
      setDraft(loaded.data);
    }
  }, [loaded.data]);

  const set = (k: SettingKey, v: unknown) => {
    setMessage(null);
    setDraft((d) => (d ? { ...d, [k]: v } : d));
  };
  const changed = saved && draft ? changedKeys(saved, draft) : [];

  async function save() {
    if (!draft || !saved || changed.length === 0) return;
    setSaving(true);
    setMessage(null);
    try {
      const patch = Object.fromEntries(changed.map((k) => [k, draft[k]])) as AdminCompanyUpdate;
      const next = await putCompany(patch);
      setSaved(next);
      setDraft(next);
      if (next.name !== companyName) storeApi.getState().setCompanyName(next.name);
      setPreviewVersion((n) => n + 1);
      setMessage({ kind: 'ok', text: t('settings.saved') });
    } catch (e) {
      setMessage({ kind: 'error', text: errorText(e) });
    } finally {
      setSaving(false);
    }
  }

  const conflict = draft ? p2pRecordingConflict(draft) : false;
  const conflictOn = (tab: 'general' | 'behaviour') =>
    conflict ? <P2PRecordingConflict tab={tab} useP2P={() => set('recordCalls', false)} keepMediaServer={() => set('callMethod', 'mediaServer')} /> : null;
  const fields = (list: FieldSpec[], tab?: 'general' | 'behaviour') => (
    <div className={styles.grid2}>
      {draft
        ? list.map((spec) => (
            <Field
              key={spec.key}
              spec={spec}
              draft={draft}
              set={set}
              problem={conflict && tab && (spec.key === 'callMethod' || spec.key === 'recordCalls') ? conflictMessageId(tab) : undefined}
            />
          ))
        : null}
    </div>
  );

  return (
    <AdminLayout screen="admin-settings">
      <div className={styles.headline}>
        <div>
          <h1>{t('settings.title')}</h1>
          <p className={styles.lead}>{t('settings.lead')}</p>
        </div>
        <div className={styles.actions}>
          {message ? (
            <span role="status" className={message.kind === 'ok' ? styles.success : styles.danger} data-testid="settings-message">
              {message.text}
            </span>
          ) : changed.length ? (
            <span className={styles.status}>{t('settings.unsaved', { count: changed.length })}</span>
          ) : null}
          <Button variant="secondary" icon={<Undo size={18} />} disabled={!changed.length || saving} onClick={() => setDraft(saved)}>
            {t('common.discard')}
          </Button>
          <Button icon={<Save size={18} />} disabled={!changed.length || saving || conflict} onClick={() => void save()} data-testid="settings-save">
            {saving ? t('common.saving') : t('common.save')}
          </Button>
        </div>
      </div>
      {loaded.error ? <p className={styles.error}>{loaded.error}</p> : null}
      {!draft ? (
        <Spinner size={28} />
      ) : (
        <div className={styles.split}>
          <Tabs.Root defaultValue="general" className={tabStyles.root}>
            <Tabs.List className={tabStyles.list} aria-label={t('settings.groups')}>
              {(['general', 'messages', 'look', 'behaviour', 'widget'] as const).map((g) => (
                <Tabs.Trigger key={g} value={g} className={tabStyles.trigger} data-testid={`settings-tab-${g}`}>
                  {t(`settings.group.${g}`)}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
            <Tabs.Content value="general" className={styles.card}>
              {fields(GENERAL, 'general')}
              {conflictOn('general')}
            </Tabs.Content>
            <Tabs.Content value="messages" className={styles.card}>
              <p className={styles.hint}>{t('settings.messagesHint')}</p>
              <table className={styles.table}>
                <thead>
                  <tr>
                    <th scope="col">{t('settings.message')}</th>
                    <th scope="col">{t('settings.english')}</th>
                    <th scope="col">{t('settings.arabic')}</th>
                  </tr>
                </thead>
                <tbody>
                  {MESSAGE_KEYS.map((k) => (
                    <tr key={k}>
                      <th scope="row">
                        <label htmlFor={`setting-${k}`}>{t(`settings.field.${k}`)}</label>
                      </th>
                      <td>
                        <textarea
                          id={`setting-${k}`}
                          className={styles.textarea}
                          value={draft[k]}
                          maxLength={2000}
                          lang="en"
                          dir="ltr"
                          onChange={(e) => set(k, e.target.value)}
                          data-testid={`setting-${k}`}
                        />
                      </td>
                      <td>
                        <textarea
                          id={`setting-${k}_ar`}
                          aria-label={`${t(`settings.field.${k}`)} (${t('settings.arabic')})`}
                          className={styles.textarea}
                          value={draft[`${k}_ar`]}
                          maxLength={2000}
                          lang="ar"
                          dir="rtl"
                          onChange={(e) => set(`${k}_ar`, e.target.value)}
                          data-testid={`setting-${k}_ar`}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Tabs.Content>
            <Tabs.Content value="look" className={styles.card}>
              {fields(LOOK)}
            </Tabs.Content>
            <Tabs.Content value="behaviour" className={styles.card}>
              {fields(BEHAVIOUR, 'behaviour')}
              {conflictOn('behaviour')}
              <p className={styles.hint}>{t('settings.behaviourHint')}</p>
            </Tabs.Content>
            <Tabs.Content value="widget" className={styles.card}>
              {fields(WIDGET)}
              <WidgetSettings origins={Array.isArray(draft.widgetOrigins) ? draft.widgetOrigins : []} />
            </Tabs.Content>
          </Tabs.Root>
          <aside className={styles.sticky} aria-label={t('preview.title')}>
            <GuestPreview draft={draft} version={previewVersion} />
          </aside>
        </div>
      )}
    </AdminLayout>
  );
}
