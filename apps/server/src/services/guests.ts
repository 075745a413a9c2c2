import crypto from 'node:crypto';
import { guestRoomName } from '@lobby/contracts';
import type { GuestRoom } from '@lobby/contracts';
import type { FastifyRequest } from 'fastify';
import type { CompanyRow } from '../repositories/companies.ts';
import type { Services } from './index.ts';

/**
 * The company a guest request is about: the explicit id, else the one whose host is the request's host, else
 * the default. Read from the company snapshots (services/companySnapshots.ts), as opening a call reads it.
 */
export async function resolveCompany(services: Services, request: FastifyRequest, companyId?: number): Promise<CompanyRow | null> {
  const snapshots = services.companySnapshots;
  if (companyId !== undefined) return (await snapshots.get(companyId))?.company ?? null;
  const hostId = await snapshots.idByHost(request.hostname);
  const byHost = hostId === null ? null : await snapshots.get(hostId);
  return (byHost ?? (await snapshots.get(services.config.defaultCompanyId)))?.company ?? null;
}

/** Guest auth's location when the browser sent none (both strings, empty). */
export const NO_LOCATION = { latitude: '', longitude: '' };

/** SHA-256 of the browser's persistent id: a 128-bit random value, so an unkeyed hash cannot be reversed. */
export function hashGuestId(guestId: string): string {
  return crypto.createHash('sha256').update(guestId, 'utf8').digest('hex');
}

export function newGuestUsername(): string {
  return `g${crypto.randomBytes(8).toString('hex')}`;
}

/**
 * Create (idempotently) the guest's room of every assignment: guest as member, the assignment's agents as
 * admins. The assignments and their agents are the company snapshot's (services/companySnapshots.ts).
 */
export async function provisionGuestRooms(services: Services, company: CompanyRow, username: string): Promise<GuestRoom[]> {
  const { config, repos, ejabberd } = services;
  const snapshot = await services.companySnapshots.get(company.id);
  const rooms = await Promise.all(
    (snapshot?.assignments ?? []).map(async (a) => {
      const name = guestRoomName(a.id, username);
      const agents = snapshot?.agents.get(a.id) ?? [];
      await ejabberd.ensureRoom({
        name,
        title: a.name,
        members: [`${username}@${config.xmppGuestDomain}`],
        admins: agents.map((u) => `${u}@${config.xmppDomain}`),
      });
      return { assignmentId: a.id, name: a.name, room: `${name}@${config.xmppMucDomain}` };
    }),
  );
  await repos.guests.saveRooms(username, rooms, services.now());
  return rooms;
}

/** The 503 a guest route answers when ejabberd could not provision the rooms. */
export const ROOMS_UNAVAILABLE = 'ejabberd: the chat rooms could not be created, try again';

/** provisionGuestRooms, or null once the failure is logged (the route answers 503 ROOMS_UNAVAILABLE). */
export async function provisionedRoomsOrNull(
  services: Services,
  company: CompanyRow,
  username: string,
  log: { error: (obj: unknown, message: string) => void },
): Promise<GuestRoom[] | null> {
  try {
    return await provisionGuestRooms(services, company, username);
  } catch (err) {
    log.error({ err }, 'room provisioning failed');
    return null;
  }
}

export function guestCredentials(services: Services, username: string, companyId: number) {
  const { config } = services;
  const jabberusername = `${username}@${config.xmppGuestDomain}`;
  const access = services.apiTokens.mint({ username, companyId });
  const xmpp = services.xmppTokens.mint(jabberusername);
  return {
    username,
    jabberusername,
    companyId,
    access_token: access.token,
    credential: xmpp.token,
    expires_in: access.expiresIn,
    credential_expires_in: xmpp.expiresIn,
  };
}
