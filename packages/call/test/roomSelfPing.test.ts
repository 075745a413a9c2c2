/**
 * Noticing a lost room (src/room/roomSelfPing.ts, docs/protocol.md "Self-ping"): the ejabberd node holding a
 * room dies and nobody in it is told; each engine's self-ping finds it is no longer an occupant within a
 * round (or at once after an XMPP reconnection) and joins the room again: the waiting guest is back in the
 * agents' queue, a call's chat goes on. The fake XMPP server loses a room as the node's death does
 * (`lose`: no presence to anyone).
 */
import { describe, expect, it } from 'vitest';
import { SELF_PING_MS } from '../src/room/roomSelfPing.ts';
import { ASSIGNMENT_ROOM, FakeWorld, settle } from './helpers/fakes.ts';
import { agentOnline, guestWaiting, inCall } from './helpers/participants.ts';

/** the clock moves one self-ping round on, and what it started settles */
async function oneRound(world: FakeWorld): Promise<void> {
  world.clock.advance(SELF_PING_MS);
  await settle();
  await settle();
}

const occupants = (world: FakeWorld) => [...(world.xmpp.rooms.get(ASSIGNMENT_ROOM)?.keys() ?? [])].sort();

describe('self-ping: a room lost with its ejabberd node', () => {
  it('when the node holding a waiting guest\'s room dies, then within a round the guest and the agent join it again and the guest is in the queue again', async () => {
    const world = new FakeWorld();
    const { guest } = await guestWaiting(world);
    const { agent } = await agentOnline(world, 'agent1');
    const callId = guest.snapshot.callId;
    expect(agent.snapshot.queue.map((e) => e.callId)).toEqual([callId]);

    world.xmpp.lose(ASSIGNMENT_ROOM);
    expect(occupants(world)).toEqual([]);
    await oneRound(world);

    expect(occupants(world)).toEqual(['agent1', 'guest1']);
    // the guest announces what the agents last had from it: it waits
    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'guest1')).toMatch(/^OpenCall\|.*\|/);
    expect(agent.snapshot.queue.map((e) => e.callId)).toEqual([callId]);
    // an agent who comes online now sees it too (it is really in the room, not only in a stale list)
    const { agent: later } = await agentOnline(world, 'agent2');
    expect(later.snapshot.queue.map((e) => e.callId)).toEqual([callId]);
  });

  it('when the node holding a call\'s room dies, then both sides join it again within a round and chat goes both ways', async () => {
    const world = new FakeWorld();
    const { guest, agent1 } = await inCall(world);
    world.xmpp.lose(ASSIGNMENT_ROOM);
    await oneRound(world);

    expect(occupants(world)).toEqual(['agent1', 'guest1']);
    guest.sendChat('still here?');
    agent1.agent.sendChat('yes');
    await settle();
    expect(agent1.agent.snapshot.status.chatMessages.map((m) => m.body)).toContain('still here?');
    expect(guest.snapshot.status.chatMessages.map((m) => m.body)).toContain('yes');
  });

  it('when the rooms answer the self-ping, then nothing is joined again; a ping not answered counts as lost', async () => {
    const world = new FakeWorld();
    await guestWaiting(world);
    await agentOnline(world, 'agent1');
    const presences = world.xmpp.presenceLog.length;
    await oneRound(world);
    await oneRound(world);
    expect(world.xmpp.pings.filter((room) => room === ASSIGNMENT_ROOM).length).toBeGreaterThanOrEqual(4);
    expect(world.xmpp.presenceLog.length).toBe(presences);

    world.xmpp.unanswered.add(ASSIGNMENT_ROOM);
    await oneRound(world);
    // both joined again (the fake room still had them: a join is a presence again)
    expect(world.xmpp.presenceLog.slice(presences).map((p) => p.nick).sort()).toEqual(['agent1', 'guest1']);
  });

  it('when the XMPP stream comes back, then the rooms joined again are self-pinged at once, without waiting for a round', async () => {
    const world = new FakeWorld();
    await guestWaiting(world);
    const session = world.xmpp.sessions[0]!;
    world.xmpp.cut(session);
    const pings = world.xmpp.pings.length;
    // the stream is down: no round pings anything (its failures would say nothing about the rooms)
    await oneRound(world);
    expect(world.xmpp.pings.length).toBe(pings);

    world.xmpp.back([session]);
    await settle();
    await settle();
    expect(world.xmpp.pings.length).toBe(pings + 1);
    expect(world.xmpp.statusOf(ASSIGNMENT_ROOM, 'guest1')).toMatch(/^OpenCall\|/);
  });
});
