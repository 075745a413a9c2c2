/**
 * The guest identifier (docs/protocol.md "Identifiers"): an id without dashes, kept in local storage and in a
 * cookie named guestId for 365 days. Either copy restores the other (a cleared storage or cookie jar).
 */
export const GUEST_ID_KEY = 'guestId';
export const GUEST_ID_COOKIE_DAYS = 365;
const VALID = /^[0-9a-f]{32}$/;

export interface GuestIdEnvironment {
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  /** document.cookie-like accessor */
  cookies: { get(): string; set(cookie: string): void };
  randomUUID(): string;
}

function readCookie(all: string): string | null {
  for (const part of all.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === GUEST_ID_KEY) return decodeURIComponent(rest.join('='));
  }
  return null;
}

export function getOrCreateGuestId(env: GuestIdEnvironment): string {
  let stored: string | null = null;
  try {
    stored = env.storage?.getItem(GUEST_ID_KEY) ?? null;
  } catch {
    stored = null; // storage can throw in private modes or sandboxed iframes
  }
  const fromCookie = readCookie(env.cookies.get());
  const id =
    [stored, fromCookie].find((v): v is string => !!v && VALID.test(v)) ??
    env.randomUUID().replaceAll('-', '');
  try {
    env.storage?.setItem(GUEST_ID_KEY, id);
  } catch {
    // the cookie below still keeps it
  }
  const maxAge = GUEST_ID_COOKIE_DAYS * 24 * 60 * 60;
  env.cookies.set(`${GUEST_ID_KEY}=${id}; max-age=${maxAge}; path=/; SameSite=Lax`);
  return id;
}

/** The browser's environment for getOrCreateGuestId. */
export function browserGuestIdEnvironment(): GuestIdEnvironment {
  let storage: Storage | null = null;
  try {
    storage = window.localStorage;
  } catch {
    storage = null;
  }
  return {
    storage,
    cookies: { get: () => document.cookie, set: (c) => (document.cookie = c) },
    randomUUID: () => crypto.randomUUID(),
  };
}
