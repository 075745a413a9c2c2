// The website widget's tab beside its list of websites (docs/widget.md "Install it"): the one line to
// paste, with this Lobby's own address, and a check of a website's address against the list being edited
// (the server frames the call page and answers the loader only for an exact origin of that list).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Copy from 'lucide-react/icons/copy';
import styles from './Admin.module.css';

/** The origin of an address pasted from the browser's bar, or null when it is not a website's. */
export function originOf(address: string): string | null {
  try {
    const url = new URL(address.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}

export function WidgetSettings({ origins }: { origins: readonly string[] }) {
  const { t } = useTranslation('admin');
  const [copied, setCopied] = useState(false);
  const [address, setAddress] = useState('');
  const snippet = `<script src="${window.location.origin}/widget.js" async></script>`;
  const origin = address.trim() ? originOf(address) : null;
  // lines the server leaves out of the list (a path, a trailing slash): said here, not found out later
  const ignored = origins.filter((line) => originOf(line) !== line);
  const verdict = !address.trim()
    ? null
    : !origin
      ? { kind: 'invalid', text: t('settings.widget.invalid') }
      : origins.includes(origin)
        ? { kind: 'allowed', text: t('settings.widget.allowed', { origin }) }
        : { kind: 'missing', text: t('settings.widget.missing', { origin }) };
  return (
    <div className={styles.field} style={{ gridColumn: '1 / -1' }}>
      {ignored.map((line) => (
        <p key={line} className={styles.danger} data-testid="widget-ignored-origin">
          {t('settings.widget.unlisted', { line })}
        </p>
      ))}
      <p className={styles.label} id="widget-snippet-label">
        {t('settings.widget.snippet')}
      </p>
      <pre dir="ltr" aria-labelledby="widget-snippet-label" data-testid="widget-snippet">
        <code>{snippet}</code>
      </pre>
      <span className={styles.actions}>
        <button
          type="button"
          className={styles.smallButton}
          onClick={() => {
            void navigator.clipboard?.writeText(snippet).then(() => setCopied(true));
          }}
          data-testid="widget-copy"
        >
          <Copy size={16} aria-hidden="true" />
          {copied ? t('settings.widget.copied') : t('settings.widget.copy')}
        </button>
      </span>
      <p className={styles.hint}>{t('settings.widget.csp')}</p>
      <label className={styles.label} htmlFor="widget-check">
        {t('settings.widget.check')}
      </label>
      <input
        id="widget-check"
        className={styles.input}
        dir="ltr"
        type="url"
        value={address}
        onChange={(e) => setAddress(e.target.value)}
        aria-describedby="widget-check-hint widget-check-result"
        data-testid="widget-check"
      />
      <span id="widget-check-hint" className={styles.hint}>
        {t('settings.widget.checkHint')}
      </span>
      <p
        id="widget-check-result"
        role="status"
        className={verdict?.kind === 'allowed' ? styles.success : verdict ? styles.danger : undefined}
        data-testid="widget-check-result"
        data-verdict={verdict?.kind}
      >
        {verdict?.text}
      </p>
    </div>
  );
}
