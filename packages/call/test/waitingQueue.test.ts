/**
 * The agent's lists built one presence at a time (agent/waitingQueue.ts): the same lists as a full
 * rebuild, the same array when nothing listed changed, and room joins kept to a few in flight.
 */
import { describe, expect, it, vi } from 'vitest';
import { buildList, withPresence, type QueueContext, type QueueEntry } from '../src/agent/waitingQueue.ts';
import { eachLimited } from '../src/agent/eachLimited.ts';
import { FakeSignalling, FakeWorld, settle } from './helpers/fakes.ts';
import { agentOnline, guestWaiting } from './helpers/participants.ts';
import { decodePresenceStatus } from '../src/presence.ts';
import type { RoomPresence } from '../src/xmpp/session.ts';

const ctx = (now: number): QueueContext => ({ nick: 'agent1', rooms: new Map(), routing: new Map(), now });

function presence(room: string, nick: string, status: string, userType: 'guest' | 'agent' = 'guest', available = true): RoomPresence {
  return {
    room,
    nick,
    jid: `${nick}@guest.test/web`,
    available,
    statusText: status,
    info: decodePresenceStatus(status),
    lobby: { userType, appointmentID: '' },
    self: false,
    affiliation: null,
    role: null,
  };
}

describe('waiting queue, one presence at a time', () => {
  it('when another agent joins a guest room, then the queue stays the same array (nothing re-renders)', () => {
    const queue = withPresence([], presence('r1', 'g1', 'OpenCall||c1'), 'OpenCall', ctx(1));
    expect(queue.map((e) => e.callId)).toEqual(['c1']);
    expect(withPresence(queue, presence('r1', 'agent2', ''), 'OpenCall', ctx(2))).toBe(queue);
    expect(withPresence(queue, presence('r2', 'g2', 'InCall|agent2@x|c2'), 'OpenCall', ctx(3))).toBe(queue);
  });

  it('when a guest changes its waiting presence, then its entry keeps its place and its first time', () => {
    let queue: QueueEntry[] = [];
    queue = withPresence(queue, presence('r1', 'g1', 'OpenCall||c1'), 'OpenCall', ctx(10));
    queue = withPresence(queue, presence('r2', 'g2', 'OpenCall||c2'), 'OpenCall', ctx(20));
    const muted = { ...presence('r1', 'g1', 'OpenCall||c1'), lobby: { userType: 'guest' as const, appointmentID: '', audioMuted: true } };
    queue = withPresence(queue, muted, 'OpenCall', ctx(30));
    expect(queue.map((e) => [e.callId, e.since, e.lobby?.audioMuted ?? false])).toEqual([
      ['c1', 10, true],
      ['c2', 20, false],
    ]);
  });

  it('when presences arrive, change and leave in any order, then the lists equal a full rebuild', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const last = new Map<string, RoomPresence>();
    let queue: QueueEntry[] = [];
    let running: QueueEntry[] = [];
    for (let step = 0; step < 3000; step++) {
      const g = random(60);
      const room = `r${g % 40}`;
      const statuses = ['OpenCall||c' + g, `OpenCall|agent1|c${g}`, `OpenCall|agent9|c${g}`, `InCall|agent2@x|c${g}`, ''];
      const p = presence(room, `g${g}`, statuses[random(statuses.length)]!, random(10) === 0 ? 'agent' : 'guest', random(6) !== 0);
      const key = `${room}/${p.nick}`;
      if (p.available) last.set(key, p);
      else last.delete(key);
      queue = withPresence(queue, p, 'OpenCall', ctx(step));
      running = withPresence(running, p, 'InCall', ctx(step));
      if (step % 97 === 0 || step === 2999) {
        expect(queue).toEqual(buildList(last.values(), 'OpenCall', ctx(step), queue));
        expect(running).toEqual(buildList(last.values(), 'InCall', ctx(step), running));
      }
    }
    expect(queue.length).toBeGreaterThan(1);
    expect(running.length).toBeGreaterThan(1);
  });

  it('when a thousand guests arrive one by one, then each arrival adds one entry and keeps every listed entry as it was', () => {
    let queue: QueueEntry[] = [];
    let rebuilt = 0;
    for (let g = 0; g < 1000; g++) {
      const before = queue;
      queue = withPresence(queue, presence(`r${g}`, `g${g}`, `OpenCall||c${g}`), 'OpenCall', ctx(g));
      // a rebuild per presence (what made the console stall with hundreds waiting) makes new entries
      rebuilt += before.filter((entry, i) => queue[i] !== entry).length;
    }
    expect(queue).toHaveLength(1000);
    expect(queue[999]?.callId).toBe('c999');
    expect(rebuilt).toBe(0);
  });
});

describe('buildList', () => {
  it('when nothing listed changed, then the rebuild is the same array; one changed entry is the only new object', () => {
    const a = presence('r1', 'g1', 'OpenCall||c1');
    const b = presence('r2', 'g2', 'OpenCall||c2');
    const first = buildList([a, b], 'OpenCall', ctx(1), []);
    expect(buildList([a, b], 'OpenCall', ctx(2), first)).toBe(first);
    const routed = { ...ctx(3), routing: new Map([['c2', { callId: 'c2', assignmentId: 1, state: 'offered' as const, offeredTo: 'agent1', expiresAt: '2030-01-01T00:00:00Z', offerSeconds: null }]]) };
    const next = buildList([a, b], 'OpenCall', routed, first);
    expect(next).not.toBe(first);
    expect(next[0]).toBe(first[0]);
    expect(next[1]?.offerExpiresAt).toBe(Date.parse('2030-01-01T00:00:00Z'));
  });
});

describe('the agent desk with a waiting guest', () => {
  it("when another agent's console joins the guest room, then the first console's queue does not change", async () => {
    const world = new FakeWorld();
    const { guest } = await guestWaiting(world);
    const { agent } = await agentOnline(world, 'agent1');
    const queue = agent.snapshot.queue;
    expect(queue.map((e) => e.callId)).toEqual([guest.snapshot.callId]);
    let changes = 0;
    agent.on('change', () => changes++);
    await agentOnline(world, 'agent2');
    await settle();
    expect(agent.snapshot.queue).toBe(queue);
    expect(changes).toBe(0);
  });
});

describe('the agent desk with many waiting guests and round robin', () => {
  it('when round robin routes one call of 300 waiting, then only that call is read again and the queue follows its routing', async () => {
    const world = new FakeWorld();
    const { agent, api } = await agentOnline(world, 'agent1');
    const room = 'assignment-1@conference.lobby.test';
    for (let g = 0; g < 300; g++) {
      const session = new FakeSignalling(world.xmpp, { jid: `g${g}@guest.lobby.test` } as ConstructorParameters<typeof FakeSignalling>[1]);
      await session.connect();
      world.xmpp.join(session, room, `g${g}`, `OpenCall||c${g}`, { userType: 'guest', appointmentID: '' });
    }
    await settle();
    expect(agent.snapshot.queue).toHaveLength(300);
    const before = agent.snapshot.queue;

    // every entry computed looks up its call's routing and its previous entry: count the look-ups
    const reads = vi.spyOn(Map.prototype, 'get');
    let read: number;
    try {
      api.events.routing({ callId: 'c150', assignmentId: 1, state: 'offered', offeredTo: 'agent2', expiresAt: '2030-01-01T00:00:00Z', offerSeconds: 30 });
      read = reads.mock.calls.length;
    } finally {
      reads.mockRestore();
    }
    // a rebuild reads all 300 presences' routing and previous entries (600+ look-ups)
    expect(read).toBeLessThan(30);
    expect(agent.snapshot.queue).toHaveLength(299);
    expect(agent.snapshot.queue.map((e) => e.callId)).not.toContain('c150');
    expect(agent.snapshot.queue.every((e) => before.includes(e))).toBe(true);

    // open to all again: listed again, in its place (its first time is kept by the desk)
    api.events.routing({ callId: 'c150', assignmentId: 1, state: 'open', offeredTo: null, expiresAt: null, offerSeconds: null });
    expect(agent.snapshot.queue).toHaveLength(300);
    expect(agent.snapshot.queue.filter((e) => e.callId === 'c150')).toHaveLength(1);
    // a routing that changes nothing listed leaves the same array (no re-render)
    const now = agent.snapshot.queue;
    api.events.routing({ callId: 'c7', assignmentId: 1, state: 'open', offeredTo: null, expiresAt: null, offerSeconds: null });
    expect(agent.snapshot.queue).toBe(now);
  });
});

describe('eachLimited', () => {
  it('when there are more rooms than the limit, then at most the limit run at once and every room is joined', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await eachLimited(
      Array.from({ length: 50 }, (_, i) => i),
      4,
      async (i) => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, i % 3));
        running--;
        done.push(i);
      },
    );
    expect(most).toBe(4);
    expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });
});
