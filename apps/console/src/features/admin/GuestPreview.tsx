import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import ExternalLink from 'lucide-react/icons/external-link';
import type { AdminCompany } from '../../api/admin.ts';
import styles from './GuestPreview.module.css';
import admin from './Admin.module.css';

/** Only http(s) and site-relative URLs reach an <img> or a CSS url(). */
export function safeImageUrl(url: string): string | null {
  const u = url.trim();
  if (!u) return null;
  if (u.startsWith('/') && !u.startsWith('//')) return u;
  try {
    const parsed = new URL(u);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/**
 * Two views of the guest page: a sketch that follows every keystroke (colours, font, logo, welcome
 * message and button, the assignments as the guest sees them), and the real guest app in a frame,
 * reloaded after each save.
 */
export function GuestPreview({ draft, version }: { draft: AdminCompany; version: number }) {
  const { t } = useTranslation('admin');
  const [view, setView] = useState<'sketch' | 'live'>('sketch');
  const [lang, setLang] = useState<'en' | 'ar'>(draft.language === 'arabic' ? 'ar' : 'en');
  const msg = (k: 'welcomeMsg' | 'welcomeButtonText') => (lang === 'ar' && draft[`${k}_ar`] ? draft[`${k}_ar`] : draft[k]);
  const bg = safeImageUrl(draft.backgroundImgUrl);
  const logo = safeImageUrl(draft.logoImageUrl);
  const shown = draft.assignments.filter((a) => draft.assignmentFilter === 'all' || a.type === draft.assignmentFilter);
  return (
    <div className={styles.wrap} data-testid="guest-preview">
      <div className={styles.bar}>
        <span className={styles.title}>{t('preview.title')}</span>
        <span className={admin.actions}>
          <button type="button" className={admin.smallButton} aria-pressed={view === 'sketch'} onClick={() => setView('sketch')}>
            {t('preview.sketch')}
          </button>
          <button type="button" className={admin.smallButton} aria-pressed={view === 'live'} onClick={() => setView('live')} data-testid="preview-live">
            {t('preview.live')}
          </button>
          {view === 'sketch' ? (
            <button type="button" className={admin.smallButton} onClick={() => setLang(lang === 'en' ? 'ar' : 'en')} lang={lang === 'en' ? 'ar' : 'en'}>
              {lang === 'en' ? 'العربية' : 'English'}
            </button>
          ) : (
            <a className={admin.smallButton} href="/" target="_blank" rel="noreferrer">
              <ExternalLink size={16} aria-hidden="true" />
              {t('preview.open')}
            </a>
          )}
        </span>
      </div>
      <div className={styles.phone}>
        {view === 'sketch' ? (
          <div
            className={styles.sketch}
            dir={lang === 'ar' ? 'rtl' : 'ltr'}
            lang={lang}
            data-testid="preview-sketch"
            style={{
              backgroundColor: draft.backgroundColor,
              backgroundImage: bg ? `url("${bg.replace(/["\\]/g, '')}")` : undefined,
              color: draft.textColor,
              fontFamily: draft.fontFamily || undefined,
            }}
          >
            <div className={styles.card}>
              {logo ? <img className={styles.logo} src={logo} alt="" /> : <span className={styles.avatar}>{draft.name.slice(0, 1)}</span>}
              <span className={styles.company}>{draft.name}</span>
              <p className={styles.welcome} data-testid="preview-welcome">
                {msg('welcomeMsg')}
              </p>
              {draft.websiteUrl ? <span className={styles.website}>{draft.websiteTitle || draft.websiteUrl}</span> : null}
              <div className={`${styles.categories} ${draft.categoryStyle === 'grid' ? styles.categoriesGrid : ''}`}>
                {shown.map((a) => (
                  <span key={a.id} className={styles.category}>
                    {a.name}
                  </span>
                ))}
              </div>
              <span className={styles.callButton} style={{ background: draft.categoryBackgroundColor, color: draft.categoryTextColor }}>
                {msg('welcomeButtonText') || t('preview.call')}
              </span>
            </div>
            <span className={styles.footer}>{draft.websiteTitle || draft.name}</span>
          </div>
        ) : (
          <div className={styles.frameBox}>
            <iframe key={version} className={styles.frame} src="/" title={t('preview.frameTitle')} data-testid="preview-frame" />
          </div>
        )}
      </div>
      <p className={admin.hint}>{view === 'sketch' ? t('preview.sketchHint') : t('preview.liveHint')}</p>
    </div>
  );
}
