import { EjabberdError } from '../../src/services/ejabberd.ts';
import type { Affiliation, EjabberdClient, RoomSpec } from '../../src/services/ejabberd.ts';
import type { JanusClient } from '../../src/services/janus.ts';

/** Records every provisioning call; `up = false` makes it fail like an unreachable ejabberd. */
export interface FakeEjabberd extends EjabberdClient {
  rooms: Map<string, RoomSpec>;
  calls: Array<{ command: string; args: unknown }>;
  up: boolean;
  /** occupants' JIDs per room name; a room missing here answers null (ejabberd could not say) */
  occupants: Map<string, string[]>;
}

export function createFakeEjabberd(): FakeEjabberd {
  const fake: FakeEjabberd = {
    rooms: new Map(),
    calls: [],
    up: true,
    occupants: new Map(),
    ensureRoom(room: RoomSpec) {
      fake.calls.push({ command: 'ensureRoom', args: room });
      if (!fake.up) return Promise.reject(new EjabberdError('ejabberd down'));
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
      return Promise.resolve(fake.up ? (fake.occupants.get(room) ?? null) : null);
    },
  };
  return fake;
}

export interface FakeJanus extends JanusClient {
  up: boolean;
}

export function createFakeJanus(): FakeJanus {
  const fake: FakeJanus = { up: true, status: () => Promise.resolve(fake.up) };
  return fake;
}
