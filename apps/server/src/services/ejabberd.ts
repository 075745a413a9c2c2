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
  /**
   * Every guest in a room of the MUC service now, as room name and guest username, in one call
   * (mod_lobby_events' `lobby_room_guests`); null when ejabberd could not say.
   */
  roomGuests(): Promise<Array<{ room: string; user: string }> | null>;
  /** Whether the guest has an XMPP session now; null when ejabberd could not say. */
  guestOnline(username: string): Promise<boolean | null>;
  /** Destroys the room (its occupants are told); a room already gone is fine. */
  destroyRoom(room: string): Promise<void>;
}

export class EjabberdError extends Error {}

export interface EjabberdHttpOptions {
  apiUrl: string;
  host: string;
  /** the guests' XMPP host (XMPP_GUEST_DOMAIN) */
  guestHost: string;
  mucService: string;
  /** one API call's time limit, counted from when it is sent (not while it waits for a slot) */
  timeoutMs?: number;
  /** API calls in flight at once; the rest wait their turn here instead of piling up in ejabberd */
  maxInFlight?: number;
  /** tries of a provisioning call that timed out, could not connect or got a 5xx (each is idempotent) */
  attempts?: number;
  /** pause before the second try; doubled before each later one */
  retryDelayMs?: number;
}

/**
 * At most `limit` tasks at once, the others in arrival order. Under a burst of registrations (the busiest
 * hour: 25 registering at once, 6 API calls each with the demo company's two assignments) ejabberd's
 * HTTP API answered late when every call was sent at once, and a call past its time limit failed the
 * registration with 503 (docs/performance.md, "Waiting guests"); queued here, each call gets ejabberd's
 * whole attention for its time limit.
 */
function createLimiter(limit: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/** A failure worth another try: no answer in time, no connection, or ejabberd's own 5xx. */
export function transient(error: unknown): boolean {
  if (error instanceof EjabberdError) return /: 5\d\d /.test(error.message);
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError' || error instanceof TypeError);
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
  const attempts = opts.attempts ?? 3;
  const retryDelayMs = opts.retryDelayMs ?? 250;
  const limited = createLimiter(opts.maxInFlight ?? 8);

  async function send(command: string, args: Record<string, unknown>, timeout = timeoutMs): Promise<{ status: number; body: string }> {
    const res = await fetch(`${base}/${command}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(args),
      signal: AbortSignal.timeout(timeout),
    });
    return { status: res.status, body: await res.text() };
  }
  const call = (command: string, args: Record<string, unknown>) => limited(() => send(command, args));

  /** `once`, tried again (after 250 ms, 500 ms…) while it fails transiently: every provisioning call is idempotent. */
  async function retried(once: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await once();
      } catch (error) {
        if (attempt >= attempts || !transient(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, retryDelayMs * 2 ** (attempt - 1)));
      }
    }
  }

  function setAffiliation(room: string, jid: string, affiliation: Affiliation): Promise<void> {
    return retried(async () => {
      const r = await call('set_room_affiliation', { name: room, service: opts.mucService, jid, affiliation });
      if (r.status !== 200) throw new EjabberdError(`set_room_affiliation ${room} ${jid}: ${r.status} ${r.body}`);
    });
  }

  return {
    async ensureRoom(room) {
      // ejabberd 23.01's create_room_with_opts takes no affiliations (mod_muc_admin:format_room_option
      // knows none), so a room costs 1 + members + admins calls: the affiliations go out together
      await retried(async () => {
        const r = await call('create_room_with_opts', {
          name: room.name,
          service: opts.mucService,
          host: opts.host,
          options: ROOM_OPTIONS(room.title),
        });
        // An existing room is fine (idempotent provisioning, and a retry of a create that was slow to answer);
        // ejabberd answers an error naming it.
        if (r.status !== 200 && !/exist/i.test(r.body)) {
          throw new EjabberdError(`create_room_with_opts ${room.name}: ${r.status} ${r.body}`);
        }
      });
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
    async roomGuests() {
      try {
        const r = await call('lobby_room_guests', { service: opts.mucService, guest_host: opts.guestHost });
        if (r.status !== 200) return null;
        const list = JSON.parse(r.body) as unknown;
        if (!Array.isArray(list)) return null;
        return list
          .map((o: unknown) => o as { room?: unknown; user?: unknown } | null)
          .filter((o): o is { room: string; user: string } => typeof o?.room === 'string' && typeof o.user === 'string')
          .map(({ room, user }) => ({ room, user }));
      } catch {
        return null;
      }
    },
    async guestOnline(username) {
      try {
        const r = await call('user_resources', { user: username, host: opts.guestHost });
        if (r.status !== 200) return null;
        const list = JSON.parse(r.body) as unknown;
        return Array.isArray(list) ? list.length > 0 : null;
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
        // not queued behind provisioning: the health check asks whether ejabberd answers at all
        const r = await send('status', {}, 1500);
        return r.status === 200;
      } catch {
        return false;
      }
    },
  };
}
