// The guest app's two routes (docs/guest-journey.md): "/" and "/appointment/{reference}", with ?webview=true.
// The page never navigates inside itself, so a router library would only weigh on the first load
// (react-router costs ≈ 10 kB gzip of the 110 kB budget); the route is read once from the URL.
import { createContext, useContext } from 'react';

export interface GuestRoute {
  kind: 'call' | 'notFound';
  /** The appointment reference of /appointment/{reference}, else null. */
  reference: string | null;
  webview: boolean;
}

export function parseRoute(url: string): GuestRoute {
  const parsed = new URL(url, 'http://localhost');
  const webview = parsed.searchParams.get('webview') === 'true';
  const path = parsed.pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return { kind: 'call', reference: null, webview };
  const appointment = /^\/appointment\/([^/]+)$/.exec(path);
  if (appointment?.[1]) return { kind: 'call', reference: decodeURIComponent(appointment[1]), webview };
  return { kind: 'notFound', reference: null, webview };
}

export const RouteContext = createContext<GuestRoute | null>(null);

/** The route of the nearest provider, else the browser's URL. */
export function useGuestRoute(): GuestRoute {
  return useContext(RouteContext) ?? parseRoute(window.location.pathname + window.location.search);
}
