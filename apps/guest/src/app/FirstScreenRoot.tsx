import { StrictMode, useEffect, type ReactNode } from 'react';
import { App, type AppProvidersProps } from './App.tsx';
import { RouteContext, parseRoute } from './route.ts';

/** Calls `onCommitted` once its children are on the page (after the hydration's commit). */
function Committed({ onCommitted, children }: { onCommitted?: () => void; children: ReactNode }) {
  useEffect(() => onCommitted?.(), [onCommitted]);
  return children;
}

/**
 * The app's element for a page whose first screen the server rendered (docs/architecture.md "The guest
 * page"): the same element on both sides, the route given rather than read from `window`, so that the
 * browser's first render (the hydration) is the server's markup to the letter. `onTakenOver` runs once the
 * app holds the page (its listeners attached).
 */
export function FirstScreenRoot({ url, onTakenOver, ...props }: Omit<AppProvidersProps, 'children'> & { url: string; onTakenOver?: () => void }) {
  return (
    <StrictMode>
      <RouteContext.Provider value={parseRoute(url)}>
        <Committed onCommitted={onTakenOver}>
          <App {...props} />
        </Committed>
      </RouteContext.Provider>
    </StrictMode>
  );
}
