import { useEffect, useMemo, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { useTranslation } from 'react-i18next';
import { applyLanguage } from '../i18n/index.ts';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { WorkspacePage } from '../features/workspace/WorkspacePage.tsx';
import { AppointmentsPage } from '../features/admin/AppointmentsPage.tsx';
import { AssignmentsPage } from '../features/admin/AssignmentsPage.tsx';
import { FormsPage } from '../features/admin/FormsPage.tsx';
import { GuestRulesPage } from '../features/admin/GuestRulesPage.tsx';
import { SchedulePage } from '../features/admin/SchedulePage.tsx';
import { SettingsPage } from '../features/admin/SettingsPage.tsx';
import { UsersPage } from '../features/admin/UsersPage.tsx';
import { hasRole } from '../features/admin/roles.ts';
import { ReportsPage } from '../features/reports/ReportsPage.tsx';
import { WallboardPage } from '../features/wallboard/WallboardPage.tsx';
import { RecordingsPage } from '../features/reports/RecordingsPage.tsx';
import type { Role } from '../api/console.ts';
import { AgentActionsContext, useAgentActions, type AgentActions } from '../state/agentActions.ts';
import { placeholderAgentActions } from '../features/desk/sessionActions.ts';
import { ConsoleStoreContext, useConsoleStore, type ConsoleStore } from '../state/store.ts';
import { Spinner } from '@lobby/ui';

/** Keeps `<html lang dir>` and the title in step with the store. */
function AppEffects() {
  const { t } = useTranslation();
  const language = useConsoleStore((s) => s.language);
  const companyName = useConsoleStore((s) => s.companyName);
  useEffect(() => applyLanguage(language), [language]);
  useEffect(() => {
    document.title = companyName ? `${companyName} · ${t('app.name')}` : t('app.name');
  }, [companyName, t, language]);
  return null;
}

/** Restores the session once (GET /api/console/me) unless a fixture already decided it. */
function SessionRestore() {
  const actions = useAgentActions();
  const session = useConsoleStore((s) => s.session);
  useEffect(() => {
    if (session === 'unknown') void actions.restoreSession();
    // Only on mount: later changes of `session` come from login/logout.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [actions]);
  return null;
}

function SessionLoading() {
  const { t } = useTranslation();
  return (
    <div role="status" data-screen="session-loading" style={{ display: 'grid', placeItems: 'center', blockSize: '100dvh', color: 'var(--ink-muted)', gap: 12, alignContent: 'center' }}>
      <Spinner size={36} />
      <span>{t('app.loading')}</span>
    </div>
  );
}

/** Shows its children to a signed-in user (of at least role `min`); sends others to /login (or /). */
function RequireSession({ children, min = 'agent' }: { children: ReactNode; min?: Role }) {
  const session = useConsoleStore((s) => s.session);
  const role = useConsoleStore((s) => s.user?.role);
  if (session === 'unknown') return <SessionLoading />;
  if (session === 'anonymous') return <Navigate to="/login" replace />;
  if (!role || !hasRole(role, min)) return <Navigate to="/" replace />;
  return children;
}

export interface AppProvidersProps {
  store: ConsoleStore;
  /** The agent engine's actions; the placeholder ones until it is wired. */
  agentActions?: AgentActions;
  children: ReactNode;
}

export function AppProviders({ store, agentActions, children }: AppProvidersProps) {
  const actions = useMemo(() => agentActions ?? placeholderAgentActions(store), [agentActions, store]);
  return (
    <ConsoleStoreContext.Provider value={store}>
      <AgentActionsContext.Provider value={actions}>
        <AppEffects />
        <SessionRestore />
        {children}
      </AgentActionsContext.Provider>
    </ConsoleStoreContext.Provider>
  );
}

/** Pages below /admin and /reports need a role; the server checks it again on every call. */
const GUARDED: Array<{ path: string; min: Role; element: ReactNode }> = [
  { path: '/admin/settings', min: 'admin', element: <SettingsPage /> },
  { path: '/admin/forms', min: 'admin', element: <FormsPage /> },
  { path: '/admin/assignments', min: 'admin', element: <AssignmentsPage /> },
  { path: '/admin/users', min: 'admin', element: <UsersPage /> },
  { path: '/admin/schedule', min: 'admin', element: <SchedulePage /> },
  { path: '/admin/rules', min: 'admin', element: <GuestRulesPage /> },
  { path: '/appointments', min: 'agent', element: <AppointmentsPage /> },
  { path: '/reports', min: 'supervisor', element: <ReportsPage /> },
  { path: '/wallboard', min: 'supervisor', element: <WallboardPage /> },
  { path: '/recordings', min: 'supervisor', element: <RecordingsPage /> },
];

/** /login, / (the queue workspace), the administration pages; anything else goes to /. */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route path="/admin" element={<Navigate to="/admin/settings" replace />} />
      {GUARDED.map((g) => (
        <Route key={g.path} path={g.path} element={<RequireSession min={g.min}>{g.element}</RequireSession>} />
      ))}
      <Route
        path="/"
        element={
          <RequireSession>
            <WorkspacePage />
          </RequireSession>
        }
      />
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}

/** The router's basename is Vite's base without the trailing slash: '/console'. */
export const BASENAME = import.meta.env.BASE_URL.replace(/\/$/, '');

export function App(props: Omit<AppProvidersProps, 'children'>) {
  return (
    <AppProviders {...props}>
      <BrowserRouter basename={BASENAME}>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
