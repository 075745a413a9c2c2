import { EjabberdError } from '../../src/services/ejabberd.ts';
import type { Affiliation, EjabberdClient, RoomSpec } from '../../src/services/ejabberd.ts';
import type { JanusGrant } from '@lobby/contracts';
import type { JanusClient } from '../../src/services/janus.ts';
import { MediaRoomClosed, type MediaRooms } from '../../src/services/media/mediaRooms.ts';

/** Records every provisioning call; `up = false` makes it fail like an unreachable ejabberd (a 5xx: worth another node). */
export interface FakeEjabberd extends EjabberdClient {
  rooms: Map<string, RoomSpec>;
  calls: Array<{ command: string; args: unknown }>;
  up: boolean;
  /** occupants' JIDs per room name; a room missing here answers null (ejabberd could not say) */
  occupants: Map<string, string[]>;
  /** guest usernames with an XMPP session now (guestOnline) */
  sessions: Set<string>;
  /** how many times each question was asked of ejabberd (roomOccupants, roomGuests, guestOnline) */
  queries: { roomOccupants: number; roomGuests: number; guestOnline: number };
  /** the rooms roomOccupants was asked about, in order */
  askedRooms: string[];
}

export function createFakeEjabberd(): FakeEjabberd {
  const fake: FakeEjabberd = {
    rooms: new Map(),
    calls: [],
    up: true,
    occupants: new Map(),
    sessions: new Set(),
    queries: { roomOccupants: 0, roomGuests: 0, guestOnline: 0 },
    askedRooms: [],
    ensureRoom(room: RoomSpec) {
      fake.calls.push({ command: 'ensureRoom', args: room });
      if (!fake.up) return Promise.reject(new EjabberdError('ejabberd down: 503 no answer'));
      fake.rooms.set(room.name, room);
      return Promise.resolve();
    },
    setAffiliation(room: string, jid: string, affiliation: Affiliation) {
      fake.calls.push({ command: 'setAffiliation', args: { room, jid, affiliation } });
      return Promise.resolve();
    },
    status() {
      return Promise.resolve(fake.up);
    },
    roomOccupants(room: string) {
      fake.queries.roomOccupants++;
      fake.askedRooms.push(room);
      return Promise.resolve(fake.up ? (fake.occupants.get(room) ?? null) : null);
    },
    roomGuests() {
      fake.queries.roomGuests++;
      if (!fake.up) return Promise.resolve(null);
      const guests = [...fake.occupants].flatMap(([room, jids]) =>
        jids.filter((jid) => jid.split('/')[0]?.endsWith('@guest.lobby.local')).map((jid) => ({ room, user: jid.split('@')[0] ?? '' })),
      );
      return Promise.resolve(guests);
    },
    guestOnline(username: string) {
      fake.queries.guestOnline++;
      return Promise.resolve(fake.up ? fake.sessions.has(username) : null);
    },
    destroyRoom(room: string) {
      fake.calls.push({ command: 'destroyRoom', args: { room } });
      if (!fake.up) return Promise.reject(new EjabberdError('ejabberd down: 503 no answer'));
      fake.rooms.delete(room);
      fake.occupants.delete(room);
      return Promise.resolve();
    },
  };
  return fake;
}

/** `up` is the first node (janus-1); `others` adds nodes after it, each up or not. */
export interface FakeJanus extends JanusClient {
  up: boolean;
  others: Map<string, boolean>;
}

export function createFakeJanus(): FakeJanus {
  const fake: FakeJanus = {
    up: true,
    others: new Map(),
    status: () => Promise.resolve([{ name: 'janus-1', up: fake.up }, ...[...fake.others].map(([name, up]) => ({ name, up }))]),
  };
  return fake;
}

/** Hands out a grant per call and records who asked; `roomOpen = false` makes the agent's grant fail (no room yet). */
export interface FakeMediaRooms extends MediaRooms {
  grants: Array<{ side: 'guest' | 'agent'; callId: string; companyId: number; username: string; webview?: boolean; record?: boolean; rejoin?: boolean; move?: boolean }>;
  roomOpen: boolean;
  /** calls whose room the server destroyed: a guest's rejoin is refused (MediaRoomClosed) */
  closed: Set<string>;
  /** the calls whose room the server destroyed (end), in order */
  ended: string[];
}

export function createFakeMediaRooms(): FakeMediaRooms {
  const grant = (callId: string): JanusGrant => ({ room: `room-${callId}`, pin: 'pin', token: `token-${callId}`, expires_in: 3600 });
  const fake: FakeMediaRooms = {
    grants: [],
    roomOpen: true,
    closed: new Set(),
    ended: [],
    grantGuest(input) {
      fake.grants.push({ side: 'guest', ...input });
      if (input.rejoin && fake.closed.has(input.callId)) return Promise.reject(new MediaRoomClosed(input.callId));
      return Promise.resolve(grant(input.callId));
    },
    grantAgent(input) {
      fake.grants.push({ side: 'agent', ...input });
      return Promise.resolve(fake.roomOpen ? grant(input.callId) : null);
    },
    secretOf: () => Promise.resolve(null),
    nodeOf: () => Promise.resolve(null),
    startRecording: () => Promise.resolve(),
    recordArmed: () => Promise.resolve(false),
    end(callId) {
      fake.ended.push(callId);
      return Promise.resolve();
    },
    sweepStale: () => Promise.resolve(),
  };
  return fake;
}
