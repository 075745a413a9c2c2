/**
 * The page's first module (main.tsx imports it before anything else, so that no other module's start-up
 * prints): the console's output is kept in the 110-entry buffer instead of shown (docs/operations.md §13; a
 * development build prints it too), and uncaught errors are kept until the company's details say whether
 * errors are reported (LOBBY_SENTRY_DSN → `sentryDsn`); the SDK then loads when the browser is idle.
 */
import { keepConsoleOutput } from '@lobby/call/console';
import { collectErrors } from '@lobby/call/reporting';
import type { GuestStore } from '../state/store.ts';

keepConsoleOutput({ print: import.meta.env.DEV });

const errorReporting = collectErrors();

/**
 * Starts (or rules out) error reporting once the company is known. A failed load may be retried by the
 * guest, so it decides nothing; meanwhile at most 20 early errors are kept.
 */
export function reportErrorsOnceConfigured(store: GuestStore): void {
  const decide = (): boolean => {
    const { company } = store.getState();
    if (!company) return false;
    void errorReporting.configure(company.sentryDsn).then((on) => {
      // a mark for people and tests: the SDK is running
      if (on) document.documentElement.dataset.errorReporting = 'on';
    });
    return true;
  };
  if (decide()) return;
  const unsubscribe = store.subscribe(() => {
    if (decide()) unsubscribe();
  });
}
