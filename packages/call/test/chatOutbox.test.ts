/**
 * Chat delivery across a lost stream (src/room/chatOutbox.ts, docs/protocol.md "Chat delivery"): a message
 * the room did not echo is sent again, with its id, once we are in the room again; a message it echoed to
 * the others is never sent again; one it echoed while nobody else was in it goes again when someone comes.
 */
import { describe, expect, it } from 'vitest';
import { RESEND_AFTER_MS } from '../src/room/chatOutbox.ts';
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

  it('when the room is lost with its node and the sender is back in it before the other side, then the message reaches the other side once it is back', async () => {
    const world = new FakeWorld();
    const { guest, agent1 } = await inCall(world);
    const agentSession = world.xmpp.sessions.find((s) => s.jid.startsWith('agent1'))!;
    // the node dies: the room goes without a word, and the agent's stream (on that node) with it
    world.xmpp.lose(ASSIGNMENT_ROOM);
    world.xmpp.cut(agentSession);
    guest.sendChat('are you there?');
    await settle();

    // the guest finds itself out of the room and joins it again, alone: the room echoes the message to nobody
    await oneRound(world);
    expect(world.xmpp.chatLog.filter((c) => c.nick !== 'agent1').length, 'sent into the lost room, then again').toBe(2);
    expect(bodies(agent1.agent.snapshot.status.chatMessages)).not.toContain('are you there?');

    // the agent's stream comes back and it joins the room again: the guest sends the message once more
    world.xmpp.back([agentSession]);
    await settle();
    await settle();
    await oneRound(world);
    expect(bodies(agent1.agent.snapshot.status.chatMessages).filter((b) => b === 'are you there?')).toHaveLength(1);
    expect(bodies(guest.snapshot.status.chatMessages).filter((b) => b === 'are you there?')).toHaveLength(1);
    const sent = world.xmpp.chatLog.length;

    // delivered: a later presence of the agent (it mutes) sends nothing again
    agent1.agent.setMuted('audio', true);
    await oneRound(world);
    expect(world.xmpp.chatLog.length).toBe(sent);
  });

  it('when the other side is in the room, then an echoed message is not sent again when it changes its presence', async () => {
    const world = new FakeWorld();
    const { guest, agent1 } = await inCall(world);
    guest.sendChat('hi');
    await settle();
    const sent = world.xmpp.chatLog.length;
    agent1.agent.setMuted('video', true);
    await oneRound(world);
    expect(world.xmpp.chatLog.length).toBe(sent);
    expect(bodies(agent1.agent.snapshot.status.chatMessages).filter((b) => b === 'hi')).toHaveLength(1);
  });

  it('when the agent writes to a guest whose presence came while it waited, then a later presence of the guest sends nothing again', async () => {
    const world = new FakeWorld();
    const { guest, agent1 } = await inCall(world);
    agent1.agent.sendChat('welcome');
    await settle();
    const sent = world.xmpp.chatLog.length;
    guest.setMuted('audio', true);
    await oneRound(world);
    expect(world.xmpp.chatLog.length).toBe(sent);
    expect(bodies(guest.snapshot.status.chatMessages).filter((b) => b === 'welcome')).toHaveLength(1);
  });

  it('when a message goes into the lost room just before the sender finds it out and joins again, then it is sent again once its echo is late, and reaches the other side', async () => {
    const world = new FakeWorld();
    const { guest, agent1 } = await inCall(world);
    // a self-ping round has just been answered: the next one is a round away
    const answered = world.xmpp.pings.length;
    while (world.xmpp.pings.length === answered) {
      world.clock.advance(250);
      await settle();
    }
    world.xmpp.lose(ASSIGNMENT_ROOM);
    world.clock.advance(SELF_PING_MS - 1500);
    await settle();
    guest.sendChat('still there?');
    await settle();

    // the next pings find both out of the room, 1.5 s after the message went into it: both join again
    world.clock.advance(1500);
    await settle();
    await settle();
    expect(bodies(agent1.agent.snapshot.status.chatMessages)).not.toContain('still there?');

    // no echo came: it is sent again once a resend is due, into the room where the agent is again
    world.clock.advance(RESEND_AFTER_MS);
    await settle();
    await settle();
    expect(bodies(agent1.agent.snapshot.status.chatMessages).filter((b) => b === 'still there?')).toHaveLength(1);
    expect(bodies(guest.snapshot.status.chatMessages).filter((b) => b === 'still there?')).toHaveLength(1);
    const sent = world.xmpp.chatLog.length;
    await oneRound(world);
    expect(world.xmpp.chatLog.length, 'nothing sent again once echoed').toBe(sent);
  });
});
