/**
 * Chat delivery across a lost stream (src/room/chatOutbox.ts, docs/protocol.md "Chat delivery"): a message
 * the room did not echo is sent again, with its id, once we are in the room again; a message it echoed to
 * the others is never sent again; one it echoed while nobody else was in it goes again when someone comes.
 */
import { describe, expect, it } from 'vitest';
import { ChatOutbox, DEPARTED_WITHIN_MS, type ChatSender } from '../src/room/chatOutbox.ts';
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

  it('when a message goes into the lost room just before the sender finds it out, then the join right after sends it again and it reaches the other side once', async () => {
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

    // the next pings find both out of the room 1.5 s after the message went into it: both join again
    world.clock.advance(1500);
    await settle();
    await settle();
    expect(bodies(agent1.agent.snapshot.status.chatMessages).filter((b) => b === 'still there?')).toHaveLength(1);
    expect(bodies(guest.snapshot.status.chatMessages).filter((b) => b === 'still there?')).toHaveLength(1);
    const sent = world.xmpp.chatLog.length;
    await oneRound(world);
    expect(world.xmpp.chatLog.length, 'nothing sent again once echoed').toBe(sent);
  });
});

/** The outbox alone, as bench/ejabberd-cluster.ts found it losing messages around a rejoin. */
describe('chat outbox around a rejoin', () => {
  const ROOM = 'call@conference.lobby.local';
  function outbox() {
    const clock = { now: 0 };
    const sent: { at: number; id: string }[] = [];
    const sender: ChatSender = {
      connected: true,
      sendChat: (_room, chat) => {
        const id = typeof chat === 'string' ? '' : (chat.id ?? '');
        sent.push({ at: clock.now, id });
        return id;
      },
    };
    const box = new ChatOutbox(() => clock.now);
    box.joined(ROOM, sender);
    box.present(ROOM, 'agent', true, sender);
    return { clock, sent, sender, box };
  }
  /** `id` went at `first` and again at `again`, and the room's echo of it then is its delivery */
  function sentAgainThenDelivered(t: Pick<ReturnType<typeof outbox>, 'sent' | 'box'>, id: string, first: number, again: number) {
    expect(t.sent).toEqual([
      { at: first, id },
      { at: again, id },
    ]);
    t.box.echoed(id);
    expect(t.box.size).toBe(0);
  }

  it('when a message went into a room lost with its node and self-ping finds us out of it 1 s later, then the join right after sends it again', () => {
    const { clock, sent, sender, box } = outbox();
    clock.now = 10_000;
    const id = box.send(ROOM, { body: 'hello' }, sender); // the room is gone: no echo
    clock.now = 11_000;
    box.roomLost(ROOM);
    // the room, restarted on another node, tells us of the agent already in it, then of us
    clock.now = 11_200;
    box.present(ROOM, 'agent', true, sender);
    box.joined(ROOM, sender);
    sentAgainThenDelivered({ sent, box }, id, 10_000, 11_200);
  });

  it('when a message is written between being found out of the room and the join, then it is sent at the join, not into the room we are out of', () => {
    const { clock, sent, sender, box } = outbox();
    clock.now = 10_000;
    box.roomLost(ROOM);
    clock.now = 10_300;
    const id = box.send(ROOM, { body: 'still there?' }, sender);
    expect(sent).toEqual([]);
    clock.now = 10_500;
    box.joined(ROOM, sender);
    expect(sent).toEqual([{ at: 10_500, id }]);
  });

  it('when a message is written after the stream came back and before the room is joined again, then it is sent at the join', () => {
    const { clock, sent, sender, box } = outbox();
    clock.now = 10_000;
    const before = box.send(ROOM, { body: 'one' }, sender); // its echo was lost with the stream
    clock.now = 10_500;
    box.streamLost();
    clock.now = 11_000;
    const after = box.send(ROOM, { body: 'two' }, sender); // connected again, not in the room yet
    expect(sent.map((s) => s.id)).toEqual([before]);
    clock.now = 11_100;
    box.joined(ROOM, sender);
    expect(sent.slice(1)).toEqual([
      { at: 11_100, id: before },
      { at: 11_100, id: after },
    ]);
  });

  it('when the room echoes a message while it still lists the other side, whose stream died with its node, then the message is sent again when the other side is back', () => {
    const { clock, sent, sender, box } = outbox();
    clock.now = 10_000;
    const id = box.send(ROOM, { body: 'can you hear me?' }, sender);
    box.echoed(id); // the room, on a node that lives, routed it to the agent's dead stream
    expect(box.size).toBe(0);
    clock.now = 11_500;
    box.present(ROOM, 'agent', false, sender); // the room noticed the agent's session is gone
    clock.now = 14_000;
    box.present(ROOM, 'agent', true, sender); // the agent, reconnected to the other node, is back in the room
    sentAgainThenDelivered({ sent, box }, id, 10_000, 14_000);
  });

  it('when the other side leaves long after the room echoed a message, then the message is not sent again', () => {
    const { clock, sent, sender, box } = outbox();
    clock.now = 10_000;
    const id = box.send(ROOM, { body: 'hi' }, sender);
    box.echoed(id);
    clock.now = 10_000 + DEPARTED_WITHIN_MS + 1;
    box.present(ROOM, 'agent', false, sender);
    box.present(ROOM, 'agent', true, sender);
    expect(sent).toEqual([{ at: 10_000, id }]);
    expect(box.size).toBe(0);
  });
});
