/**
 * The chat of a call's room (src/room/roomChat.ts, docs/protocol.md "Call status" chat, "Chat delivery"),
 * on its own: two participants, each a RoomChat on a session of the fake XMPP server
 * (test/helpers/fakes.ts), wired to their session as the engines wire theirs — the room's messages to
 * `receive`, our own presence to `roomJoined`, the other side's to `otherSidePresence`, a drop to
 * `streamLost`. The engines' chat over a whole call is in chatOutbox.test.ts and engines.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { RoomChat } from '../src/room/roomChat.ts';
import { RESEND_AFTER_MS } from '../src/room/chatOutbox.ts';
import { initialCallStatus, type CallStatus } from '../src/state/callStatus.ts';
import { ASSIGNMENT_ROOM, FakeWorld, settle, type FakeSignalling } from './helpers/fakes.ts';

const ROOM = ASSIGNMENT_ROOM;

interface Participant {
  nick: string;
  session: FakeSignalling;
  chat: RoomChat;
  status: () => CallStatus;
  /** the room of the call (null: no call) */
  room: string | null;
}

/** One side of a call: its session connected and in the room, its chat wired as an engine wires it. */
async function participant(world: FakeWorld, nick: string): Promise<Participant> {
  const session = world.xmpp.factory({ wsUrl: 'ws://xmpp.test', jid: `${nick}@lobby.test`, credential: 'c' }) as FakeSignalling;
  let status = initialCallStatus();
  const self: Participant = {
    nick,
    session,
    status: () => status,
    room: ROOM,
    chat: new RoomChat({
      clock: world.clock,
      signalling: () => session,
      room: () => self.room,
      setStatus: (update) => (status = update(status)),
    }),
  };
  session.on('chat', (message) => {
    const mine = message.nick === nick;
    self.chat.receive(message, mine, mine ? session.jid : `${message.nick}@lobby.test`);
  });
  session.on('roomPresence', (presence) => {
    if (presence.self) return presence.available ? self.chat.roomJoined(presence.room) : undefined;
    self.chat.otherSidePresence(presence);
  });
  session.on('disconnected', () => self.chat.streamLost());
  await session.connect();
  await join(session, nick);
  return self;
}

async function join(session: FakeSignalling, nick: string): Promise<void> {
  await session.joinRoom(ROOM, nick, '', { userType: nick === 'guest1' ? 'guest' : 'agent', appointmentID: '' });
  await settle();
}

const bodies = (p: Participant) => p.status().chatMessages.map((m) => m.body);
const sentBy = (world: FakeWorld, nick: string) => world.xmpp.chatLog.filter((c) => c.nick === nick);

/** The guest's message went once, into the room without the agent; the agent comes back and it goes again. */
async function reachesTheAgentBack(world: FakeWorld, agent: Participant, body: string): Promise<void> {
  expect(sentBy(world, 'guest1')).toHaveLength(1);
  expect(bodies(agent)).toEqual([]);
  world.xmpp.back([agent.session]);
  await join(agent.session, 'agent1');
  expect(sentBy(world, 'guest1')).toHaveLength(2);
  expect(bodies(agent)).toEqual([body]);
}

describe('the chat of a call room', () => {
  it('when a message is sent, then it goes to the call\'s room trimmed and both sides list it once: the sender\'s as its own, the other\'s as unread', async () => {
    const world = new FakeWorld();
    const guest = await participant(world, 'guest1');
    const agent = await participant(world, 'agent1');

    guest.chat.send('  hello  ');
    await settle();

    expect(sentBy(world, 'guest1')).toHaveLength(1);
    expect(guest.status().chatMessages).toMatchObject([{ body: 'hello', mine: true, nick: 'guest1', from: 'guest1@lobby.test' }]);
    expect(guest.status().unreadMessages).toBe(0);
    expect(agent.status().chatMessages).toMatchObject([{ body: 'hello', mine: false, nick: 'guest1', from: 'guest1@lobby.test' }]);
    expect(agent.status().unreadMessages).toBe(1);
    // both list it under the id the sender gave it
    expect(agent.status().chatMessages[0]!.id).toBe(sentBy(world, 'guest1')[0]!.id);
  });

  it('when the message is blank or there is no call room, then nothing is sent', async () => {
    const world = new FakeWorld();
    const guest = await participant(world, 'guest1');
    await participant(world, 'agent1');

    guest.chat.send('   ');
    guest.room = null;
    guest.chat.send('hello');
    await settle();

    expect(world.xmpp.chatLog).toEqual([]);
  });

  it('when messages come, then the newest is first, unread while the chat is closed, and opening it clears the count', async () => {
    const world = new FakeWorld();
    const guest = await participant(world, 'guest1');
    const agent = await participant(world, 'agent1');

    agent.chat.send('one');
    agent.chat.send('two');
    await settle();
    expect(bodies(guest)).toEqual(['two', 'one']);
    expect(guest.status().unreadMessages).toBe(2);

    guest.chat.setOpen(true);
    expect(guest.status()).toMatchObject({ isChatOpen: true, unreadMessages: 0 });
    agent.chat.send('three');
    await settle();
    expect(guest.status().unreadMessages).toBe(0);

    guest.chat.setOpen(false);
    agent.chat.send('four');
    await settle();
    expect(guest.status()).toMatchObject({ isChatOpen: false, unreadMessages: 1 });
    expect(bodies(guest)).toEqual(['four', 'three', 'two', 'one']);
  });

  it('when a file is sent, then it is uploaded under its type and its link goes to the room with its name; an image shows as one', async () => {
    const world = new FakeWorld();
    const guest = await participant(world, 'guest1');
    const agent = await participant(world, 'agent1');
    const uploads: string[] = [];
    const upload = (type: string) => {
      uploads.push(type);
      return Promise.resolve(`https://files.test/${uploads.length}`);
    };

    await guest.chat.sendFile(Object.assign(new Blob(['x'], { type: 'image/png' }), { name: 'photo.png' }), upload);
    await guest.chat.sendFile(new Blob(['x'], { type: 'application/pdf' }), upload);
    await settle();

    expect(uploads).toEqual(['image', 'document']);
    expect(agent.status().chatMessages).toMatchObject([
      { body: 'file', file: { url: 'https://files.test/2', name: 'file', kind: 'document' } },
      { body: 'photo.png', file: { url: 'https://files.test/1', name: 'photo.png', kind: 'image' } },
    ]);
  });

  it('when a file is sent without a call room or while the stream is down, then it fails with "not in a call" and nothing is uploaded', async () => {
    const world = new FakeWorld();
    const guest = await participant(world, 'guest1');
    let uploads = 0;
    const upload = () => Promise.resolve(`https://files.test/${++uploads}`);

    world.xmpp.cut(guest.session);
    await expect(guest.chat.sendFile(new Blob(['x']), upload)).rejects.toThrow('not in a call');
    world.xmpp.back([guest.session]);
    guest.room = null;
    await expect(guest.chat.sendFile(new Blob(['x']), upload)).rejects.toThrow('not in a call');
    expect(uploads).toBe(0);
  });

  it('when a message is typed while the stream is down, then it goes with the same id once our presence is back in the room, and only once', async () => {
    const world = new FakeWorld();
    const guest = await participant(world, 'guest1');
    const agent = await participant(world, 'agent1');

    world.xmpp.cut(guest.session);
    guest.chat.send('back soon');
    await settle();
    expect(world.xmpp.chatLog).toEqual([]);

    world.xmpp.back([guest.session]);
    await join(guest.session, 'guest1');
    expect(sentBy(world, 'guest1')).toHaveLength(1);
    expect(bodies(agent)).toEqual(['back soon']);

    // echoed while the agent was there: a later join sends nothing again
    world.clock.advance(RESEND_AFTER_MS);
    guest.chat.roomJoined(ROOM);
    await settle();
    expect(sentBy(world, 'guest1')).toHaveLength(1);
  });

  it('when the room echoes a message to nobody else, then it goes again when the other side comes into the room', async () => {
    const world = new FakeWorld();
    const guest = await participant(world, 'guest1');

    guest.chat.send('are you there?');
    await settle();
    expect(bodies(guest)).toEqual(['are you there?']);

    const agent = await participant(world, 'agent1');
    const sent = sentBy(world, 'guest1');
    expect(sent).toHaveLength(2);
    expect(sent[1]!.id).toBe(sent[0]!.id);
    expect(bodies(agent)).toEqual(['are you there?']);
    expect(bodies(guest)).toEqual(['are you there?']);
  });

  it('when the room is found lost, then whoever was seen in it no longer counts: a message it echoes then waits for the other side to come back', async () => {
    const world = new FakeWorld();
    const guest = await participant(world, 'guest1');
    const agent = await participant(world, 'agent1');

    // the node dies: nobody is told; the agent's stream goes with it, the guest is found out of the room
    world.xmpp.lose(ROOM);
    world.xmpp.cut(agent.session);
    guest.chat.roomsLost([ROOM]);
    await join(guest.session, 'guest1');
    guest.chat.send('still there?');
    await settle();
    await reachesTheAgentBack(world, agent, 'still there?');
  });

  it('when our stream was lost, then the other side seen before no longer counts: a message the empty room echoes waits for it to come back', async () => {
    const world = new FakeWorld();
    const guest = await participant(world, 'guest1');
    const agent = await participant(world, 'agent1');

    // our stream drops, and the room goes with its node meanwhile (the agent out of it, nobody told)
    world.xmpp.cut(guest.session);
    world.xmpp.lose(ROOM);
    guest.chat.send('hello again');
    world.xmpp.back([guest.session]);
    await join(guest.session, 'guest1');
    await reachesTheAgentBack(world, agent, 'hello again');
  });

  it('when the call ends, then what the room has not echoed is never sent', async () => {
    const world = new FakeWorld();
    const guest = await participant(world, 'guest1');
    await participant(world, 'agent1');

    world.xmpp.cut(guest.session);
    guest.chat.send('too late');
    guest.chat.clear();
    world.xmpp.back([guest.session]);
    await join(guest.session, 'guest1');

    expect(world.xmpp.chatLog).toEqual([]);
  });
});
