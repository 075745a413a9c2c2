import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import Settings from 'lucide-react/icons/settings';
import ListTree from 'lucide-react/icons/list-tree';
import ClipboardList from 'lucide-react/icons/clipboard-list';
import Users from 'lucide-react/icons/users';
import Clock from 'lucide-react/icons/clock';
import ShieldCheck from 'lucide-react/icons/shield-check';
import CalendarClock from 'lucide-react/icons/calendar-clock';
import ChartColumn from 'lucide-react/icons/chart-column';
import Film from 'lucide-react/icons/film';
import { useConsoleStore } from '../../state/store.ts';
import { Header } from '../workspace/Header.tsx';
import { hasRole } from './roles.ts';
import styles from './Admin.module.css';

/** Header, the administration sections the user's role may open, and the page. */
export function AdminLayout({ children, screen }: { children: ReactNode; screen: string }) {
  const { t } = useTranslation('admin');
  const { t: tc } = useTranslation();
  const role = useConsoleStore((s) => s.user?.role ?? 'agent');
  const links = [
    { to: '/admin/settings', icon: <Settings size={18} />, label: t('nav.settings'), min: 'admin' as const },
    { to: '/admin/forms', icon: <ClipboardList size={18} />, label: t('nav.forms'), min: 'admin' as const },
    { to: '/admin/assignments', icon: <ListTree size={18} />, label: t('nav.assignments'), min: 'admin' as const },
    { to: '/admin/users', icon: <Users size={18} />, label: t('nav.users'), min: 'admin' as const },
    { to: '/admin/schedule', icon: <Clock size={18} />, label: t('nav.schedule'), min: 'admin' as const },
    { to: '/admin/rules', icon: <ShieldCheck size={18} />, label: t('nav.rules'), min: 'admin' as const },
    { to: '/appointments', icon: <CalendarClock size={18} />, label: t('nav.appointments'), min: 'agent' as const },
    { to: '/reports', icon: <ChartColumn size={18} />, label: t('nav.reports'), min: 'supervisor' as const },
    { to: '/recordings', icon: <Film size={18} />, label: t('nav.recordings'), min: 'supervisor' as const },
  ].filter((l) => hasRole(role, l.min));
  return (
    <div className={styles.page} data-screen={screen}>
      <a href="#admin-main" className="skip-link">
        {tc('app.skipToContent')}
      </a>
      <Header />
      <div className={styles.body}>
        <nav className={styles.sideNav} aria-label={t('nav.label')}>
          <span className={styles.sideTitle}>{t('nav.label')}</span>
          {links.map((l) => (
            <NavLink key={l.to} to={l.to} className={styles.sideLink}>
              <span aria-hidden="true">{l.icon}</span>
              {l.label}
            </NavLink>
          ))}
        </nav>
        <main id="admin-main" className={styles.main} tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}
