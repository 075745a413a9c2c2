import type { ConsoleUser } from '@lobby/contracts';
import type { UserRow } from '../repositories/users.ts';
import { visibleAssignments } from './callVisibility.ts';
import type { Services } from './index.ts';

/** A console user's XMPP address. */
export function consoleJid(services: Pick<Services, 'config'>, user: UserRow): string {
  return `${user.xmppUsername}@${services.config.xmppDomain}`;
}

/** Where anyone (the guest) reads a user's picture: public, by the upload's unguessable id. */
export function profileImageUrl(imageId: string): string {
  return `/api/profile-images/${imageId}`;
}

/** The console's view of its user: who it is and the assignments whose calls it sees. */
export async function publicUser(services: Pick<Services, 'config' | 'repos'>, user: UserRow): Promise<ConsoleUser> {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    companyId: user.companyId,
    jid: consoleJid(services, user),
    assignmentIds: await visibleAssignments(services.repos, user),
    ...(user.profileImageId ? { profileImageUrl: profileImageUrl(user.profileImageId) } : {}),
  };
}
