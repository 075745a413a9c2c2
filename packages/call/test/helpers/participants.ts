/** A guest and agents on one fake world (test/helpers/fakes.ts), as far into a call as a test needs. */
import { AgentDesk } from '../../src/agent/agentDesk.ts';
import { GuestCall, type GuestCallOptions } from '../../src/guest/guestCall.ts';
import { createFakeConsoleApi, createFakeGuestApi, settle, type FakeWorld } from './fakes.ts';

export async function guestReady(world: FakeWorld, extra: Partial<GuestCallOptions> = {}) {
  const ports = world.ports();
  const api = createFakeGuestApi('guest1');
  if (world.xmpp.jingle) api.mediaGrant = () => Promise.resolve({ method: 'p2p' });
  const guest = new GuestCall({ api, companyId: 1, xmppWsUrl: 'ws://xmpp.test', janusServers: ['ws://janus.test'], ports, lineSteps: true, ...extra });
  await guest.prepare('guest-id-1');
  await settle();
  return { guest, api, ports };
}

/** A guest who called and waits for an agent. */
export async function guestWaiting(world: FakeWorld, extra: Partial<GuestCallOptions> = {}) {
  const guest = await guestReady(world, extra);
  await guest.guest.call('video');
  await settle();
  return guest;
}

/** An agent whose console is online (joined the assignment's room). */
export async function agentOnline(world: FakeWorld, name: string) {
  const jid = `${name}@lobby.test`;
  const api = createFakeConsoleApi(jid);
  if (world.xmpp.jingle) api.mediaGrant = () => Promise.resolve({ method: 'p2p' });
  const ports = world.ports();
  const agent = new AgentDesk({ api, displayName: name, companyId: 1, xmppWsUrl: 'ws://xmpp.test', janusServers: ['ws://janus.test'], ports, lineSteps: true });
  await agent.start();
  await settle();
  return { agent, api, ports, jid };
}

/** A guest in a call that agent1 answered. */
export async function inCall(world: FakeWorld, extra: Partial<GuestCallOptions> = {}) {
  const guest = await guestWaiting(world, extra);
  const agent1 = await agentOnline(world, 'agent1');
  const callId = guest.guest.snapshot.callId!;
  await agent1.agent.answer(callId);
  await settle();
  return { ...guest, agent1, callId };
}
