/** The page the engine runs in (docs/protocol.md "Presence": visibility, Android, notifications). */
export interface EnvironmentPort {
  pageHidden(): boolean;
  /** calls `listener` on every visibility change; returns the function that unsubscribes */
  onVisibilityChange(listener: () => void): () => void;
  isAndroid(): boolean;
  notificationAllowed(): boolean;
  userAgent(): string;
}

/** Publishing begins only when the page is visible (docs/protocol.md "Media session"). */
export function whenVisible(environment: EnvironmentPort): Promise<void> {
  if (!environment.pageHidden()) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = environment.onVisibilityChange(() => {
      if (environment.pageHidden()) return;
      stop();
      resolve();
    });
  });
}
