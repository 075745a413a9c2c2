import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './theme/global.css';
import './i18n/index.ts';
import './features/index.ts';
import { App } from './app/App.tsx';
import { createGuestStore } from './app/store.ts';
import type { AppServices } from './app/services.ts';

async function start(): Promise<void> {
  const store = createGuestStore();
  let services: Partial<AppServices> | undefined;
  // Dev-only screen fixtures (`?fixture=<screen>`): a demo company, straight to that screen.
  // The whole branch, and the fixtures module with it, is dropped from production builds.
  if (import.meta.env.DEV) {
    const params = new URLSearchParams(window.location.search);
    const fixture = params.get('fixture');
    if (fixture) {
      const { applyFixture } = await import('./app/fixtures.ts');
      services = await applyFixture(store, fixture, params);
    }
  }
  const root = document.getElementById('root');
  if (!root) throw new Error('#root missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <App store={store} services={services} />
    </StrictMode>,
  );
}

void start();
