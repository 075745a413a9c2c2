/**
 * The server's client of an ejabberd cluster (services/ejabberdCluster.ts, docs/operations.md "Scaling"):
 * rooms spread over the nodes, a node that does not answer skipped, and the questions only every node
 * together can answer (the guests in rooms) answered "cannot say" while one node is down. Each node is
 * the fake ejabberd of the other server tests.
 */
import { describe, expect, it } from 'vitest';
import { EjabberdError } from '../../src/services/ejabberd.ts';
import { createEjabberdClusterClient } from '../../src/services/ejabberdCluster.ts';
import { createFakeEjabberd } from '../helpers/fakes.ts';

const room = (name: string) => ({ name, title: 'Sales', members: ['g1@guest.lobby.local'], admins: ['agent-18@lobby.local'] });

function cluster() {
  const nodes = [createFakeEjabberd(), createFakeEjabberd()] as const;
  let t = 1_000_000;
  const client = createEjabberdClusterClient([...nodes], { downMs: 10_000, now: () => t });
  return { nodes, client, advance: (ms: number) => (t += ms) };
}

describe('ejabberd cluster client', () => {
  it('when rooms are created, then both nodes create some, and a room is always asked of the same node first', async () => {
    const { nodes, client } = cluster();
    const names = Array.from({ length: 20 }, (_, i) => `a1-g${i}`);
    for (const name of names) await client.ensureRoom(room(name));

    expect(nodes[0].rooms.size).toBeGreaterThan(0);
    expect(nodes[1].rooms.size).toBeGreaterThan(0);
    expect(nodes[0].rooms.size + nodes[1].rooms.size).toBe(20);
    const holder = nodes[0].rooms.has('a1-g3') ? nodes[0] : nodes[1];
    await client.ensureRoom(room('a1-g3'));
    expect(holder.calls.filter((c) => c.command === 'ensureRoom' && (c.args as { name: string }).name === 'a1-g3')).toHaveLength(2);
  });

  it('when a node does not answer, then its rooms are created on the other node, and it is asked last until its time out is over', async () => {
    const { nodes, client, advance } = cluster();
    nodes[0].up = false;
    const names = Array.from({ length: 10 }, (_, i) => `a1-g${i}`);
    for (const name of names) await client.ensureRoom(room(name));

    expect(nodes[1].rooms.size).toBe(10);
    // asked once, then left aside: the later rooms went to node 2 without asking it
    expect(nodes[0].calls.filter((c) => c.command === 'ensureRoom')).toHaveLength(1);
    nodes[0].up = true;
    advance(10_001);
    for (const name of names) await client.ensureRoom(room(`${name}-later`));
    expect(nodes[0].rooms.size).toBeGreaterThan(0);
  });

  it('when no node answers, then the creation fails with the last error', async () => {
    const { nodes, client } = cluster();
    nodes[0].up = false;
    nodes[1].up = false;
    await expect(client.ensureRoom(room('a1-g1'))).rejects.toThrow(EjabberdError);
  });

  it('when a node refuses a call (a 4xx), then the refusal is the answer: no other node is asked', async () => {
    const { nodes, client } = cluster();
    for (const node of nodes) {
      node.ensureRoom = () => Promise.reject(new EjabberdError('create_room_with_opts a1-g1: 400 invalid name'));
    }
    await expect(client.ensureRoom(room('a1-g1'))).rejects.toThrow(/400/);
    expect(nodes[0].calls.length + nodes[1].calls.length).toBe(0);
  });

  it('when one node is down, then the guests in rooms cannot be told (null), and with both up they are every node\'s together', async () => {
    const { nodes, client } = cluster();
    nodes[0].occupants.set('a1-g1', ['g1@guest.lobby.local/web']);
    nodes[1].occupants.set('a1-g2', ['g2@guest.lobby.local/web']);
    expect(await client.roomGuests()).toEqual([
      { room: 'a1-g1', user: 'g1' },
      { room: 'a1-g2', user: 'g2' },
    ]);

    nodes[1].up = false;
    expect(await client.roomGuests()).toBeNull();
  });

  it('when a guest has a session on either node, then it is online; offline only when every node says so; null when a node cannot say', async () => {
    const { nodes, client } = cluster();
    nodes[1].sessions.add('g1');
    expect(await client.guestOnline('g1')).toBe(true);
    expect(await client.guestOnline('g2')).toBe(false);
    nodes[0].up = false;
    expect(await client.guestOnline('g2')).toBeNull();
    expect(await client.guestOnline('g1')).toBe(true);
  });

  it('when the node asked first cannot say who is in a room, then the other node is asked', async () => {
    const { nodes, client } = cluster();
    nodes[0].up = false;
    nodes[1].occupants.set('a1-g1', ['g1@guest.lobby.local/web']);
    expect(await client.roomOccupants('a1-g1')).toEqual(['g1@guest.lobby.local/web']);
    expect(await client.status()).toBe(true);
    nodes[1].up = false;
    expect(await client.status()).toBe(false);
  });
});
