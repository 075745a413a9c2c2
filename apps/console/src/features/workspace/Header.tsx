import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import LogOut from 'lucide-react/icons/log-out';
import Headset from 'lucide-react/icons/headset';
import ListOrdered from 'lucide-react/icons/list-ordered';
import CalendarClock from 'lucide-react/icons/calendar-clock';
import ChartColumn from 'lucide-react/icons/chart-column';
import MonitorDot from 'lucide-react/icons/monitor-dot';
import Settings from 'lucide-react/icons/settings';
import { hasRole } from '../admin/roles.ts';
import { useConsoleStore } from '../../state/store.ts';
import { useAgentActions } from '../../state/agentActions.ts';
import { useLanguageChange } from '../base/useLanguageChange.ts';
import { AvailabilitySwitch } from './AvailabilitySwitch.tsx';
import styles from './Workspace.module.css';
import { LanguageSwitch } from '@lobby/ui';
import { ProfilePicture } from './ProfilePicture.tsx';

/** Company, navigation, availability, the agent, language and sign-out. */
export function Header() {
  const { t } = useTranslation();
  const { t: ta } = useTranslation('admin');
  const actions = useAgentActions();
  const user = useConsoleStore((s) => s.user);
  const companyName = useConsoleStore((s) => s.companyName);
  const language = useConsoleStore((s) => s.language);
  const changeLanguage = useLanguageChange();
  return (
    <header className={styles.header}>
      <div className={styles.brand}>
        <span className={styles.mark} aria-hidden="true">
          <Headset size={18} />
        </span>
        <span className={styles.company} data-testid="company-name">
          {companyName ?? t('app.name')}
        </span>
      </div>
      <nav className={styles.nav} aria-label={t('nav.label')} data-crowded={user && hasRole(user.role, 'supervisor') ? 'true' : 'false'}>
        <NavLink to="/" end className={styles.navLink} title={t('nav.queue')}>
          <ListOrdered size={18} aria-hidden="true" />
          <span className={styles.navText}>{t('nav.queue')}</span>
        </NavLink>
        <NavLink to="/appointments" className={styles.navLink} title={ta('nav.appointments')} data-testid="nav-appointments">
          <CalendarClock size={18} aria-hidden="true" />
          <span className={styles.navText}>{ta('nav.appointments')}</span>
        </NavLink>
        {user && hasRole(user.role, 'supervisor') ? (
          <NavLink to="/reports" className={styles.navLink} title={ta('nav.reports')} data-testid="nav-reports">
            <ChartColumn size={18} aria-hidden="true" />
            <span className={styles.navText}>{ta('nav.reports')}</span>
          </NavLink>
        ) : null}
        {user && hasRole(user.role, 'supervisor') ? (
          <NavLink to="/wallboard" className={styles.navLink} title={ta('nav.wallboard')} data-testid="nav-wallboard">
            <MonitorDot size={18} aria-hidden="true" />
            <span className={styles.navText}>{ta('nav.wallboard')}</span>
          </NavLink>
        ) : null}
        {user && hasRole(user.role, 'admin') ? (
          <NavLink to="/admin" className={styles.navLink} title={ta('nav.admin')} data-testid="nav-admin">
            <Settings size={18} aria-hidden="true" />
            <span className={styles.navText}>{ta('nav.admin')}</span>
          </NavLink>
        ) : null}
      </nav>
      <div className={styles.tools}>
        <AvailabilitySwitch />
        <LanguageSwitch value={language} onChange={changeLanguage} tone="onSurface" />
        <div className={styles.user}>
          <ProfilePicture />
          <span className={styles.userText}>
            <span className={styles.userName} data-testid="agent-name">
              {user?.name}
            </span>
            {user ? <span className={styles.userRole}>{t(`header.role.${user.role}`)}</span> : null}
          </span>
        </div>
        <button type="button" className={styles.logout} onClick={() => void actions.logout()} data-testid="logout-button">
          <LogOut size={18} aria-hidden="true" />
          <span className={styles.logoutText}>{t('header.logout')}</span>
        </button>
      </div>
    </header>
  );
}
