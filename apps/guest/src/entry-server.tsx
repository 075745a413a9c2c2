// The guest app's server build (`vite build --ssr`, apps/guest/dist-ssr/): the Lobby server loads it at
// start-up and renders the first screen into the page it answers for `/` (docs/architecture.md "The guest
// page"). The same components, store and strings as the browser's app, so the markup is what the app's
// first render (its hydration) gives; CSS-module class names are the client build's (same files, same root).
import { renderToString } from 'react-dom/server';
import type { FirstScreen, FirstScreenRenderer } from '@lobby/contracts/firstScreen';
import './i18n/index.ts';
import './features/index.ts';
import { ensureLanguage, i18n } from './i18n/index.ts';
import { browserLanguageOf, resolveLanguage } from './i18n/language.ts';
import { ScreenRegistry } from './features/screens/registry.ts';
import { createGuestStore } from './state/store.ts';
import { themeVariables } from './theme/theme.ts';
import type { Company } from './api/company.ts';
import { firstScreenOf, firstScreenState, pageMayCarryFirstScreen, type FirstScreenName } from './app/firstScreen.ts';
import { FirstScreenRoot } from './app/FirstScreenRoot.tsx';

// Everything a render needs is loaded once, before the first: the two screens and every catalogue.
await Promise.all([ScreenRegistry.load('selection'), ScreenRegistry.load('preview'), ensureLanguage('ar')]);

/** The client build's modules (its manifest's names) each screen needs: its chunk and its CSS. */
const SCREEN_MODULES: Record<FirstScreenName, string> = {
  selection: 'src/features/selection/SelectionScreen.tsx',
  preview: 'src/features/preview/PreviewScreen.tsx',
};
/** The Arabic catalogues the app loads before it takes an Arabic page over. */
const ARABIC_MODULES = ['src/i18n/ar.json', 'src/i18n/journey/ar.json', '../../packages/ui/src/strings/ar.json'];

/**
 * The first screen for `details` (the company details as the API answers them), the selection or the
 * preview screen, in the language the app would pick (the company's languages and the request's
 * Accept-Language; the guest's saved choice is in its browser only, and the app renders anew when it
 * differs). Null when the gate would not show one of them straight away: the server does not know the
 * browser, so it assumes one that can call and is not automated; the app checks both before it takes the
 * page over.
 */
export const renderFirstScreen: FirstScreenRenderer['renderFirstScreen'] = (details, request): FirstScreen | null => {
  const company = details as Company;
  if (!company || typeof company !== 'object' || typeof company.name !== 'string') return null;
  if (!pageMayCarryFirstScreen(request.url)) return null;
  const screen = firstScreenOf(company, { browser: null, automated: false, now: request.now });
  if (!screen) return null;
  const language = resolveLanguage(company, null, browserLanguageOf(request.acceptLanguage));
  // renders are synchronous: the one translator switches to this page's language for its render
  i18n.changeLanguage(language);
  const store = createGuestStore(firstScreenState(company, language, screen, request.url));
  const html = renderToString(<FirstScreenRoot url={request.url} store={store} services={{ gate: null }} />);
  return {
    html,
    language,
    dir: i18n.dir(language),
    title: i18n.t('app.title', { company: company.name }),
    theme: themeVariables(company),
    modules: [SCREEN_MODULES[screen], ...(language === 'ar' ? ARABIC_MODULES : [])],
  };
};
