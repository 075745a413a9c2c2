// first: from here on nothing prints, and uncaught errors are kept for error reporting
import { reportErrorsOnceConfigured } from './app/diagnostics.ts';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import './theme/global.css';
import './i18n/index.ts';
import './features/index.ts';
import { App } from './app/App.tsx';
import { createGuestStore } from './state/store.ts';
import type { AppServices } from './state/services.ts';
import type { CallActions } from './state/callActions.ts';
import { lazyCallActions } from './features/call/lazyCallActions.ts';
import { mountWidgetFeatures } from './features/widget/index.ts';
import { adoptMovedCall } from './features/widget/movedCall.ts';
import { ScreenRegistry } from './features/screens/registry.ts';
import { takeOverFirstScreen } from './app/takeOver.ts';
import { FirstScreenRoot } from './app/FirstScreenRoot.tsx';

async function start(): Promise<void> {
  // a widget window opened with the panel's call (↗) takes its guest and call before anything reads them
  adoptMovedCall();
  // the page's first screen, when the server rendered it and this browser's app would show the same
  const takeOver = takeOverFirstScreen();
  // the likely first screens' chunks load while React starts and the company details arrive
  ScreenRegistry.preload('selection');
  ScreenRegistry.preload('preview');
  const store = createGuestStore(takeOver?.state);
  reportErrorsOnceConfigured(store); // only with the deployment's DSN, after the first render
  let services: Partial<AppServices> | undefined;
  let callActions: CallActions | undefined;
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
  // Real calls, unless a dev fixture asked for the screen-only demo actions.
  if (!services) callActions = lazyCallActions(store);
  // website widget bridge (docs/widget.md) + notice when answered while hidden
  mountWidgetFeatures(store, callActions);
  const root = document.getElementById('root');
  if (!root) throw new Error('#root missing from index.html');
  if (takeOver) {
    await takeOver.ready;
    const url = window.location.pathname + window.location.search;
    const replay = takeOver.stopRecording();
    hydrateRoot(root, <FirstScreenRoot url={url} store={store} services={services} callActions={callActions} onTakenOver={replay} />);
    return;
  }
  createRoot(root).render(
    <StrictMode>
      <App store={store} services={services} callActions={callActions} />
    </StrictMode>,
  );
}

void start();
