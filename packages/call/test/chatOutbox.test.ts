/**
 * Chat delivery across a lost stream (src/room/chatOutbox.ts, docs/protocol.md "Chat delivery"): a message
 * the room did not echo is sent again, with its id, once we are in the room again; a message it echoed is
 * never sent again.
 */
import { describe, expect, it } from 'vitest';
import { SELF_PING_MS } from '../src/room/roomSelfPing.ts';
import { ASSIGNMENT_ROOM, FakeWorld, settle } from './helpers/fakes.ts';
import { inCall } from './helpers/participants.ts';

async function oneRound(world: FakeWorld): Promise<void> {
  world.clock.advance(SELF_PING_MS);
  await settle();
  await settle();
}

const bodies = (messages: { body: string }[]) => messages.map((m) => m.body);

describe('chat delivery', () => {
  it('when chat is sent while the stream is down, then it is sent once the stream is back and the room joined again', async () => {
    const world = new FakeWorld();
    const { guest, agent1 } = await inCall(world);
    const session = world.xmpp.sessions.find((s) => s.jid.startsWith('guest1'))!;
    world.xmpp.cut(session);
    guest.sendChat('back soon');
    await settle();
    expect(bodies(agent1.agent.snapshot.status.chatMessages)).not.toContain('back soon');

    world.xmpp.back([session]);
    await settle();
    await settle();
    await oneRound(world);

    expect(bodies(agent1.agent.snapshot.status.chatMessages).filter((b) => b === 'back soon')).toHaveLength(1);
  });

  it('when the room echoes a message, then a later join sends nothing again', async () => {
    const world = new FakeWorld();
    const { guest, agent1 } = await inCall(world);
    guest.sendChat('hello');
    await settle();
    const sent = world.xmpp.chatLog.length;
    world.xmpp.unanswered.add(ASSIGNMENT_ROOM);
    await oneRound(world);
    await oneRound(world);
    expect(bodies(agent1.agent.snapshot.status.chatMessages).filter((b) => b === 'hello')).toHaveLength(1);
    // the pings went unanswered, so both joined again: the echoed message was not sent again
    expect(world.xmpp.chatLog.length).toBe(sent);
  });
});
