import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import Eye from 'lucide-react/icons/eye';
import EyeOff from 'lucide-react/icons/eye-off';
import CircleAlert from 'lucide-react/icons/circle-alert';
import Headset from 'lucide-react/icons/headset';
import { useConsoleStore } from '../../state/store.ts';
import { useAgentActions } from '../../state/agentActions.ts';
import { useLanguageChange } from '../base/useLanguageChange.ts';
import styles from './LoginPage.module.css';
import { Button, LanguageSwitch } from '@lobby/ui';

/** Email + password sign-in; shows the server's refusal in words. */
export function LoginPage() {
  const { t } = useTranslation();
  const actions = useAgentActions();
  const session = useConsoleStore((s) => s.session);
  const pending = useConsoleStore((s) => s.loginPending);
  const error = useConsoleStore((s) => s.loginError);
  const language = useConsoleStore((s) => s.language);
  const changeLanguage = useLanguageChange();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const errorId = useId();

  if (session === 'authenticated') return <Navigate to="/" replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void actions.login(email.trim(), password);
  };

  return (
    <div className={styles.page} data-screen="login">
      <div className={styles.language}>
        <LanguageSwitch value={language} onChange={changeLanguage} tone="onSurface" />
      </div>
      <main className={styles.card}>
        <div className={styles.mark} aria-hidden="true">
          <Headset size={28} />
        </div>
        <h1 className={styles.title}>{t('login.title')}</h1>
        <p className={styles.subtitle}>{t('login.subtitle')}</p>
        <form className={styles.form} onSubmit={submit} noValidate={false}>
          {error ? (
            <p className={styles.error} role="alert" id={errorId} data-testid="login-error" data-error={error}>
              <CircleAlert size={18} aria-hidden="true" />
              {t(`login.error.${error}`)}
            </p>
          ) : null}
          <label className={styles.field}>
            <span className={styles.label}>{t('login.email')}</span>
            <input
              type="email"
              name="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={error === 'invalid' || undefined}
              aria-describedby={error ? errorId : undefined}
              data-testid="login-email"
            />
          </label>
          <label className={styles.field}>
            <span className={styles.label}>{t('login.password')}</span>
            <span className={styles.passwordRow}>
              <input
                type={showPassword ? 'text' : 'password'}
                name="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                aria-invalid={error === 'invalid' || undefined}
                aria-describedby={error ? errorId : undefined}
                data-testid="login-password"
              />
              <button
                type="button"
                className={styles.reveal}
                onClick={() => setShowPassword((v) => !v)}
                aria-label={showPassword ? t('login.hidePassword') : t('login.showPassword')}
                aria-pressed={showPassword}
              >
                {showPassword ? <EyeOff size={18} aria-hidden="true" /> : <Eye size={18} aria-hidden="true" />}
              </button>
            </span>
          </label>
          <Button type="submit" block disabled={pending} data-testid="login-submit">
            {pending ? t('login.submitting') : t('login.submit')}
          </Button>
        </form>
      </main>
      <p className={styles.product}>{t('app.name')}</p>
    </div>
  );
}
