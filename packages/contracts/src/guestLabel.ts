/**
 * What agents call a guest, the same on every screen and file that names one (the queue, the call area,
 * Reports, Recordings: docs/api.md "Guest label"): the name the guest gave, else "Guest" and the last
 * four characters of its username, upper case (easy to tell apart, and the same code on every screen).
 * The console words the fallback in its language (`unnamed`); the server's default is the English one.
 */
export function guestLabel(
  username: string,
  name: string | null | undefined,
  unnamed: (code: string) => string = (code) => `Guest ${code}`,
): string {
  const given = name?.trim();
  return given ? given : unnamed(guestCode(username));
}

/** The last four characters of a guest's username, upper case ("g4bf8db1a8bcf98a4" → "98A4"). */
export function guestCode(username: string): string {
  return username.slice(-4).toUpperCase();
}

/**
 * The guest's name among its welcome-form answers: a text answer keyed name, full_name or fullName. The
 * guest app announces it to the agents; the server reads it from the stored submission.
 */
export function guestNameAnswer(answers: Readonly<Record<string, unknown>>): string | null {
  for (const [key, value] of Object.entries(answers)) {
    if (/^(full_?)?name$/i.test(key) && typeof value === 'string' && value.trim()) return value.trim();
  }
  return null;
}
