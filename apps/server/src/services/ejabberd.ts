/** Room provisioning through ejabberd's mod_http_api (loopback listener, explicit command list). */

export type Affiliation = 'owner' | 'admin' | 'member' | 'outcast' | 'none';

export interface RoomSpec {
  /** local part of the room JID, e.g. a12-g0123456789abcdef */
  name: string;
  title: string;
  members: string[];
  admins: string[];
}

export interface EjabberdClient {
  /** Create the room if missing (persistent, private, members-only) and set the affiliations. Idempotent. */
  ensureRoom(room: RoomSpec): Promise<void>;
  setAffiliation(room: string, jid: string, affiliation: Affiliation): Promise<void>;
  /** true when the API answers the `status` command */
  status(): Promise<boolean>;
  /** The real JIDs of a room's occupants now; null when ejabberd could not say (no such room, down). */
  roomOccupants(room: string): Promise<string[] | null>;
  /** Destroys the room (its occupants are told); a room already gone is fine. */
  destroyRoom(room: string): Promise<void>;
}

export class EjabberdError extends Error {}

export interface EjabberdHttpOptions {
  apiUrl: string;
  host: string;
  mucService: string;
  timeoutMs?: number;
}

export const ROOM_OPTIONS = (title: string) => [
  { name: 'persistent', value: 'true' },
  { name: 'public', value: 'false' },
  { name: 'members_only', value: 'true' },
  { name: 'anonymous', value: 'false' },
  { name: 'allow_private_messages', value: 'false' },
  { name: 'allow_query_users', value: 'false' },
  { name: 'mam', value: 'false' },
  { name: 'title', value: title },
];

export function createEjabberdHttpClient(opts: EjabberdHttpOptions): EjabberdClient {
  const base = opts.apiUrl.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 5000;

  async function call(command: string, args: Record<string, unknown>, timeout = timeoutMs): Promise<{ status: number; body: string }> {
    const res = await fetch(`${base}/${command}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(args),
      signal: AbortSignal.timeout(timeout),
    });
    return { status: res.status, body: await res.text() };
  }

  async function setAffiliation(room: string, jid: string, affiliation: Affiliation): Promise<void> {
    const r = await call('set_room_affiliation', { name: room, service: opts.mucService, jid, affiliation });
    if (r.status !== 200) throw new EjabberdError(`set_room_affiliation ${room} ${jid}: ${r.status} ${r.body}`);
  }

  return {
    async ensureRoom(room) {
      const r = await call('create_room_with_opts', {
        name: room.name,
        service: opts.mucService,
        host: opts.host,
        options: ROOM_OPTIONS(room.title),
      });
      // An existing room is fine (idempotent provisioning); ejabberd answers an error naming it.
      if (r.status !== 200 && !/exist/i.test(r.body)) {
        throw new EjabberdError(`create_room_with_opts ${room.name}: ${r.status} ${r.body}`);
      }
      await Promise.all([
        ...room.members.map((jid) => setAffiliation(room.name, jid, 'member')),
        ...room.admins.map((jid) => setAffiliation(room.name, jid, 'admin')),
      ]);
    },
    setAffiliation,
    async roomOccupants(room) {
      try {
        const r = await call('get_room_occupants', { name: room, service: opts.mucService });
        if (r.status !== 200) return null;
        const list = JSON.parse(r.body) as unknown;
        if (!Array.isArray(list)) return null;
        // [{jid, nick, role}] (older versions: [[jid, nick, role]])
        return list
          .map((o: unknown): unknown => (Array.isArray(o) ? (o as unknown[])[0] : (o as { jid?: unknown } | null)?.jid))
          .filter((jid): jid is string => typeof jid === 'string');
      } catch {
        return null;
      }
    },
    async destroyRoom(room) {
      const r = await call('destroy_room', { name: room, service: opts.mucService });
      // ejabberd 23.01 answers a missing room with 400 "Room doesn't exists": gone is what we want
      if (r.status !== 200 && !/exist|not.found/i.test(r.body)) throw new EjabberdError(`destroy_room ${room}: ${r.status} ${r.body}`);
    },
    async status() {
      try {
        const r = await call('status', {}, 1500);
        return r.status === 200;
      } catch {
        return false;
      }
    },
  };
}
