/**
 * The one spelling of a console user's email (docs/security.md "Console login"): Unicode NFKC (full-width
 * letters, compatibility spaces), every kind of white space JavaScript's trim() knows removed at both
 * ends, lower case. The login throttle keys on it and the account lookup matches it, so that no spelling
 * of one address ("  Agent@…", "\u00a0agent@…", "ａｇｅｎｔ@…") gets a fresh count of tries; accounts are
 * stored in it (admin users, createCompany).
 */
export function normaliseEmail(email: string): string {
  // NFKC again after lower-casing: a few letters' lower case is not in NFKC form
  return email.normalize('NFKC').trim().toLowerCase().normalize('NFKC');
}
