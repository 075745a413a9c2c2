import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Plus from 'lucide-react/icons/plus';
import Trash from 'lucide-react/icons/trash-2';
import {
  blockGuest,
  createQuota,
  createZone,
  deleteQuota,
  deleteZone,
  listBlocked,
  listQuotas,
  listZones,
  unblockGuest,
  type GeofenceZoneInput,
  type QuotaPeriod,
} from '../../api/admin.ts';
import { useConsoleStore } from '../../state/store.ts';
import { AdminLayout } from './AdminLayout.tsx';
import { errorText, useAsync } from './useAsync.ts';
import styles from './Admin.module.css';
import { PageHead } from './AdminParts.tsx';

/** Polygon corners as lines `lat, lng` → GeoJSON-order [lng, lat] pairs; null when a line is not a coordinate. */
export function parseCorners(text: string): Array<[number, number]> | null {
  const out: Array<[number, number]> = [];
  for (const line of text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const m = /^(-?\d+(?:\.\d+)?)\s*[,\s]\s*(-?\d+(?:\.\d+)?)$/.exec(line);
    if (!m) return null;
    const lat = Number(m[1]);
    const lng = Number(m[2]);
    if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
    out.push([lng, lat]);
  }
  return out;
}

/** Who may call: call quotas per period, blocked guests, and the service area (geofence zones). */
export function GuestRulesPage() {
  const { t } = useTranslation('admin');
  const language = useConsoleStore((s) => s.language);
  const data = useAsync(async () => {
    const [quotas, blocked, zones] = await Promise.all([listQuotas(), listBlocked(), listZones()]);
    return { quotas, blocked, zones };
  });
  const [error, setError] = useState<string | null>(null);
  const [period, setPeriod] = useState<QuotaPeriod>('day');
  const [limit, setLimit] = useState(100);
  const [guest, setGuest] = useState('');
  const [reason, setReason] = useState('');
  const [zoneKind, setZoneKind] = useState<'circle' | 'polygon'>('circle');
  const [zoneName, setZoneName] = useState('');
  const [center, setCenter] = useState({ lat: '', lng: '', radius: '1000' });
  const [corners, setCorners] = useState('');
  const done = () => {
    setError(null);
    data.reload();
  };
  const fail = (e: unknown) => setError(errorText(e));
  const num = new Intl.NumberFormat(language);

  function addZone(e: FormEvent) {
    e.preventDefault();
    let body: GeofenceZoneInput;
    if (zoneKind === 'circle') {
      body = {
        name: zoneName,
        kind: 'circle',
        center: { lat: Number(center.lat), lng: Number(center.lng) },
        radiusMeters: Number(center.radius),
      };
    } else {
      const ring = parseCorners(corners);
      if (!ring || ring.length < 3) return setError(t('rules.badCorners'));
      body = { name: zoneName, kind: 'polygon', coordinates: ring };
    }
    createZone(body)
      .then(() => {
        setZoneName('');
        setCorners('');
        done();
      })
      .catch(fail);
  }

  const d = data.data;
  const del = (label: string, run: () => Promise<unknown>) => (
    <button
      type="button"
      className={`${styles.smallButton} ${styles.danger}`}
      aria-label={t('common.deleteNamed', { name: label })}
      onClick={() => void run().then(done).catch(fail)}
    >
      <Trash size={16} aria-hidden="true" />
    </button>
  );
  return (
    <AdminLayout screen="admin-rules">
      <PageHead title={t('rules.title')} lead={t('rules.lead')} error={error ?? data.error} />

      <RuleSection
        id="quotas-h"
        title={t('rules.quotas')}
        hint={t('rules.quotasHint')}
        rows={
          <>
            {d?.quotas.map((q) => (
              <tr key={q.id} data-testid="quota-row">
                <td>{t(`rules.period.${q.period}`)}</td>
                <td className={styles.num}>
                  {t('rules.used', { used: num.format(q.used), limit: num.format(q.limit) })}
                </td>
                <td>{del(t(`rules.period.${q.period}`), () => deleteQuota(q.id))}</td>
              </tr>
            ))}
          </>
        }
      >
        <RuleForm
          submitLabel={t('rules.addQuota')}
          onSubmit={() => {
            createQuota({ period, limit }).then(done).catch(fail);
          }}
        >
          <select
            className={styles.select}
            style={{ maxInlineSize: 180 }}
            aria-label={t('rules.periodLabel')}
            value={period}
            onChange={(e) => setPeriod(e.target.value as QuotaPeriod)}
          >
            {(['day', 'week', 'month'] as const).map((p) => (
              <option key={p} value={p}>
                {t(`rules.period.${p}`)}
              </option>
            ))}
          </select>
          <input
            className={styles.input}
            style={{ maxInlineSize: 160 }}
            type="number"
            min={0}
            aria-label={t('rules.limit')}
            value={limit}
            onChange={(e) => setLimit(Number(e.target.value))}
          />
        </RuleForm>
      </RuleSection>

      <RuleSection
        id="blocked-h"
        title={t('rules.blocked')}
        hint={t('rules.blockedHint')}
        empty={d && d.blocked.length === 0 ? t('rules.noBlocked') : null}
        rows={
          <>
            {d?.blocked.map((b) => (
              <tr key={b.id} data-testid="blocked-row">
                <td dir="ltr">{b.guestUsername}</td>
                <td>{b.reason}</td>
                <td>
                  {new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(new Date(b.createdAt))}
                </td>
                <td>{del(b.guestUsername, () => unblockGuest(b.id))}</td>
              </tr>
            ))}
          </>
        }
      >
        <RuleForm
          submitLabel={t('rules.block')}
          onSubmit={() => {
            blockGuest({ guestUsername: guest.trim(), reason })
              .then(() => {
                setGuest('');
                setReason('');
                done();
              })
              .catch(fail);
          }}
        >
          <input
            className={styles.input}
            style={{ maxInlineSize: 240 }}
            dir="ltr"
            required
            pattern="g[0-9a-f]{16}"
            aria-label={t('rules.guestUsername')}
            placeholder="g0123456789abcdef"
            value={guest}
            onChange={(e) => setGuest(e.target.value)}
          />
          <input
            className={styles.input}
            style={{ maxInlineSize: 320 }}
            aria-label={t('rules.reason')}
            placeholder={t('rules.reason')}
            maxLength={1000}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
        </RuleForm>
      </RuleSection>

      <RuleSection
        id="zones-h"
        title={t('rules.zones')}
        hint={t('rules.zonesHint')}
        empty={d && d.zones.length === 0 ? t('rules.noZones') : null}
        rows={
          <>
            {d?.zones.map((z) => (
              <tr key={z.id} data-testid="zone-row">
                <td>{z.name}</td>
                <td dir="ltr">
                  {z.kind === 'circle'
                    ? t('rules.circleSummary', {
                        lat: z.center.lat,
                        lng: z.center.lng,
                        radius: num.format(z.radiusMeters),
                      })
                    : t('rules.polygonSummary', { count: z.coordinates.length })}
                </td>
                <td>{del(z.name, () => deleteZone(z.id))}</td>
              </tr>
            ))}
          </>
        }
      >
        <form onSubmit={addZone} className={styles.grid2} style={{ marginBlockStart: 10 }}>
          <div className={styles.field}>
            <label className={styles.label} htmlFor="zone-name">
              {t('rules.zoneName')}
            </label>
            <input
              id="zone-name"
              className={styles.input}
              required
              maxLength={200}
              value={zoneName}
              onChange={(e) => setZoneName(e.target.value)}
            />
          </div>
          <div className={styles.field}>
            <label className={styles.label} htmlFor="zone-kind">
              {t('rules.zoneKind')}
            </label>
            <select
              id="zone-kind"
              className={styles.select}
              value={zoneKind}
              onChange={(e) => setZoneKind(e.target.value as 'circle' | 'polygon')}
            >
              <option value="circle">{t('rules.circle')}</option>
              <option value="polygon">{t('rules.polygon')}</option>
            </select>
          </div>
          {zoneKind === 'circle' ? (
            <>
              <div className={styles.field}>
                <label className={styles.label} htmlFor="zone-lat">
                  {t('rules.lat')}
                </label>
                <input
                  id="zone-lat"
                  className={styles.input}
                  dir="ltr"
                  type="number"
                  step="any"
                  min={-90}
                  max={90}
                  required
                  value={center.lat}
                  onChange={(e) => setCenter({ ...center, lat: e.target.value })}
                />
              </div>
              <div className={styles.field}>
                <label className={styles.label} htmlFor="zone-lng">
                  {t('rules.lng')}
                </label>
                <input
                  id="zone-lng"
                  className={styles.input}
                  dir="ltr"
                  type="number"
                  step="any"
                  min={-180}
                  max={180}
                  required
                  value={center.lng}
                  onChange={(e) => setCenter({ ...center, lng: e.target.value })}
                />
              </div>
              <div className={styles.field}>
                <label className={styles.label} htmlFor="zone-radius">
                  {t('rules.radius')}
                </label>
                <input
                  id="zone-radius"
                  className={styles.input}
                  dir="ltr"
                  type="number"
                  min={1}
                  required
                  value={center.radius}
                  onChange={(e) => setCenter({ ...center, radius: e.target.value })}
                />
              </div>
            </>
          ) : (
            <div className={styles.field} style={{ gridColumn: '1 / -1' }}>
              <label className={styles.label} htmlFor="zone-corners">
                {t('rules.corners')}
              </label>
              <textarea
                id="zone-corners"
                className={styles.textarea}
                dir="ltr"
                rows={5}
                value={corners}
                onChange={(e) => setCorners(e.target.value)}
                aria-describedby="zone-corners-hint"
                placeholder={'24.71, 46.67\n24.72, 46.70\n24.69, 46.71'}
              />
              <span id="zone-corners-hint" className={styles.hint}>
                {t('rules.cornersHint')}
              </span>
            </div>
          )}
          <div className={`${styles.actions} ${styles.formEnd}`}>
            <button type="submit" className={styles.smallButton}>
              <Plus size={16} aria-hidden="true" />
              {t('rules.addZone')}
            </button>
          </div>
        </form>
      </RuleSection>
    </AdminLayout>
  );
}

/** One rule's card: heading, hint, the rules as table rows (a delete button each), the form to add one. */
function RuleSection({
  id,
  title,
  hint,
  empty,
  rows,
  children,
}: {
  id: string;
  title: string;
  hint: string;
  empty?: string | null;
  rows: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className={styles.card} aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p className={styles.hint}>{hint}</p>
      {empty ? <p className={styles.empty}>{empty}</p> : null}
      <table className={styles.table}>
        <tbody>{rows}</tbody>
      </table>
      {children}
    </section>
  );
}

/** A rule's add form: its fields in a row and the add button. */
function RuleForm({
  submitLabel,
  onSubmit,
  children,
}: {
  submitLabel: string;
  onSubmit: () => void;
  children: ReactNode;
}) {
  return (
    <form
      className={styles.actions}
      style={{ marginBlockStart: 10 }}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
      <button type="submit" className={styles.smallButton}>
        <Plus size={16} aria-hidden="true" />
        {submitLabel}
      </button>
    </form>
  );
}
