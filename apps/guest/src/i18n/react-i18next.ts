// What @lobby/ui's components import as 'react-i18next' becomes, in the guest's build and tests, the
// guest's own hook (vite.apps.ts `guestAliases`): one translation layer, one language, in the guest page.
// The console keeps react-i18next.
export { useTranslation } from './index.ts';
