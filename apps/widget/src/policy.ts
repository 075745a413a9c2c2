// The website's own Content-Security-Policy refusing the Lobby origin (docs/widget.md "Content Security
// Policy"). The browser reports each refusal to the page as a `securitypolicyviolation` event, at once:
// the loader names the directive to fix instead of a bare network error, and offers the new window
// as soon as a frame is refused instead of waiting for a page that will never answer.

/** The directives the loader needs from the website, by what each one lets through. */
export type NeededDirective = 'connect-src' | 'frame-src';

export interface PolicyRefusals {
  /** calls `then` once, when (or if already) the directive refuses the Lobby origin */
  onRefused(directive: NeededDirective, then: () => void): void;
  /**
   * The explanation once the browser has had its chance to report a refusal (its event comes as a task
   * of its own, after a refused fetch has already failed), or null after `ms` without one.
   */
  refusedSoon(directive: NeededDirective, ms: number): Promise<string | null>;
}

/** `frame-src` falls back to `child-src`, then `default-src`; `connect-src` to `default-src`. */
const COVERS: Record<NeededDirective, string[]> = {
  'connect-src': ['connect-src', 'default-src'],
  'frame-src': ['frame-src', 'child-src', 'default-src'],
};

export function watchPolicyRefusals(lobbyOrigin: string): PolicyRefusals {
  const seen = new Map<NeededDirective, string>();
  const waiting = new Map<NeededDirective, Array<() => void>>();
  document.addEventListener('securitypolicyviolation', (event) => {
    let blocked: string;
    try {
      blocked = new URL(event.blockedURI).origin;
    } catch {
      return; // 'inline', 'eval': not the Lobby origin
    }
    if (blocked !== lobbyOrigin) return;
    const directive = event.effectiveDirective || event.violatedDirective;
    for (const need of Object.keys(COVERS) as NeededDirective[]) {
      if (!COVERS[need].includes(directive) || seen.has(need)) continue;
      seen.set(need, `this website's Content-Security-Policy (${directive}) refuses ${lobbyOrigin}: add it to ${need}`);
      console.error(`Lobby widget: ${seen.get(need)}`);
      for (const then of waiting.get(need) ?? []) then();
      waiting.delete(need);
    }
  });
  const onRefused = (directive: NeededDirective, then: () => void) => {
    if (seen.has(directive)) then();
    else waiting.set(directive, [...(waiting.get(directive) ?? []), then]);
  };
  return {
    onRefused,
    refusedSoon: (directive, ms) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve(seen.get(directive) ?? null), ms);
        onRefused(directive, () => {
          clearTimeout(timer);
          resolve(seen.get(directive) ?? null);
        });
      }),
  };
}
