/**
 * Chat files come from the other side of the call: only links to our own origin (the upload service's
 * /api/files/…) are shown as links or previews; anything else is shown as plain text.
 */
export function safeFileUrl(url: string, origin: string = window.location.origin): string | null {
  try {
    const parsed = new URL(url, origin);
    if (parsed.origin !== origin) return null;
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    return parsed.pathname.startsWith('/api/files/') ? parsed.href : null;
  } catch {
    return null;
  }
}
