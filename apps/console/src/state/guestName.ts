import i18n from 'i18next';

/**
 * What the agent calls a guest: the name the guest gave (welcome form or the website's pre-fill, sent in
 * its room presence), else "Guest" and the last four characters of its username, easy to tell apart.
 */
export function guestDisplayName(nick: string, announced: string | undefined): string {
  const name = announced?.trim();
  return name ? name : i18n.t('queue.guestLabel', { code: nick.slice(-4).toUpperCase() });
}
