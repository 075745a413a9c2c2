import i18n from 'i18next';
import { guestLabel } from '@lobby/contracts/guestLabel';
import type { QueueEntry } from '@lobby/call';

/**
 * What the agent calls a guest (the one label of @lobby/contracts' guestLabel, as Reports and Recordings
 * show it): the name the guest gave (welcome form or the website's pre-fill, sent in its room presence,
 * or the welcome form's as the server read it), else "Guest" and the last four characters of its
 * username, in the console's language.
 */
export function guestDisplayName(username: string, name: string | null | undefined): string {
  return guestLabel(username, name, (code) => i18n.t('queue.guestLabel', { code }));
}

/** What the agent calls a waiting guest: the name in its room presence, else its label from its nick. */
export function queueGuestName(entry: Pick<QueueEntry, 'nick' | 'lobby'>): string {
  return guestDisplayName(entry.nick, entry.lobby?.name);
}
