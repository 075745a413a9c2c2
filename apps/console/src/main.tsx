// first: from here on nothing prints (docs/operations.md §13)
import './app/keepConsole.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './theme/global.css';
import { initialLanguage } from './i18n/index.ts';
import { App } from './app/App.tsx';
import { createConsoleStore } from './state/store.ts';
import type { AgentActions } from './state/agentActions.ts';
import { engineAgentActions } from './features/desk/engineAgentActions.ts';

async function start(): Promise<void> {
  const store = createConsoleStore({ language: initialLanguage() });
  let agentActions: AgentActions | undefined;
  let fixture: string | null = null;
  // Dev-only fixtures (`?fixture=login|login-error|empty|queue|call|voice-call&lang=ar`, with `&guests=N` for N made-up
  // waiting guests and `&role=admin` for an admin's header): no server needed.
  // The branch and the fixtures module are dropped from production builds.
  if (import.meta.env.DEV) {
    const params = new URLSearchParams(window.location.search);
    fixture = params.get('fixture');
    if (fixture) {
      const { applyFixture } = await import('./app/fixtures.ts');
      await applyFixture(store, fixture, params);
    }
  }
  // Real calls, unless a dev fixture asked for the state-only placeholder actions.
  if (!fixture) agentActions = engineAgentActions(store);
  const root = document.getElementById('root');
  if (!root) throw new Error('#root missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <App store={store} agentActions={agentActions} />
    </StrictMode>,
  );
}

void start();
