/**
 * Calls across a real network: the guest behind a NAT router in its own namespace, the agent
 * on a public address, the stack inside the public namespace behind a 1:1 NAT with production's
 * settings (scripts/lib/netns.sh, scripts/test e2e-network). Each journey proves media by decoded
 * frames and received audio, and the path by the selected candidate pair in getStats().
 */
import { expect, test } from '@playwright/test';
import type { LaunchedBrowser } from '../support/browser.ts';
import { closeAll, screenshot } from '../support/journey.ts';
import { guestCallsAndAgentAnswers } from '../tests/incall-support.ts';
import { expectSelectedPairs, firewallDrops, guestFirewall, launchIn, NET, natUdpFlows } from './net.ts';

// ICE over a relay tries the direct pairs first and gives them up only after their checks time out
test.describe.configure({ timeout: 180_000 });

let agent: LaunchedBrowser | undefined;
let guest: LaunchedBrowser | undefined;

test.afterEach(async ({}, testInfo) => {
  await closeAll(testInfo, ...[agent, guest].filter((b): b is LaunchedBrowser => !!b));
  agent = guest = undefined;
  await guestFirewall('open');
});

/** Both browsers in their namespaces, the guest calls, the agent answers, video and audio both ways. */
async function callAcrossTheNetwork(tag: string) {
  agent = await launchIn('agent', `${tag}-agent`);
  guest = await launchIn('guest', `${tag}-guest`);
  await guestCallsAndAgentAnswers(agent, guest);
  return { agent, guest };
}

async function hangUp(page: LaunchedBrowser['page']) {
  await page.getByTestId('agent-hangup-button').click();
  await expect(page.getByTestId('call-idle')).toBeVisible();
}

test('when the guest sits behind a NAT, then media flows directly between its private address and Janus at the public address JANUS_NAT_1_1_MAPPING announces', async ({}, testInfo) => {
  await guestFirewall('open');
  const udpFlowsBefore = await natUdpFlows();

  const { agent, guest } = await callAcrossTheNetwork('nat');

  // the guest's browser sends from behind its NAT (its private address, or the router's public one as
  // STUN learnt it) to Janus's public address: no relay in between
  const guestPairs = await expectSelectedPairs(guest.page, 'guest');
  for (const { local, remote } of guestPairs) {
    expect(['host', 'srflx', 'prflx'], `guest: local candidate ${JSON.stringify(local)}`).toContain(
      local.candidateType,
    );
    expect(local.address).toBe(local.candidateType === 'host' ? NET.guestPrivate : NET.guestNatPublic);
    expect(local.protocol).toBe('udp');
    expect(remote.candidateType, 'guest: Janus candidate').toBe('host');
    expect(remote.address, 'Janus announces the 1:1 NAT address').toBe(NET.webPublic);
  }
  // and its router translated those UDP flows (the NAT was really crossed)
  expect(await natUdpFlows()).toBeGreaterThan(udpFlowsBefore);
  const agentPairs = await expectSelectedPairs(agent.page, 'agent');
  for (const { local, remote } of agentPairs) {
    expect(local.candidateType, `agent: local candidate ${JSON.stringify({ local, remote })}`).not.toBe(
      'relay',
    );
    expect(local.address).toBe(NET.agent);
    expect(remote.address).toBe(NET.webPublic);
  }
  await screenshot(guest.page, testInfo, 'nat-guest-ongoing');
  await hangUp(agent.page);
});

/**
 * The guest's media went through coturn: every selected pair of the guest starts at a relay candidate
 * at coturn's public address (TURN_EXTERNAL_IP), reached over `relayProtocol` through `url`, and ends at
 * Janus's public address; the agent, on an open network, needed no relay. The firewall did drop packets.
 */
async function expectGuestRelayed(
  call: { agent: LaunchedBrowser; guest: LaunchedBrowser },
  /** the ways to the relay the guest's network leaves open (protocol and the TURN URL it came from) */
  ways: readonly { relayProtocol: 'tcp' | 'tls'; url: string }[],
) {
  for (const { local, remote } of await expectSelectedPairs(call.guest.page, 'guest')) {
    expect(local.candidateType, `guest: local candidate ${JSON.stringify({ local, remote })}`).toBe('relay');
    expect(ways.map((w) => w.relayProtocol), 'guest: to the relay over').toContain(local.relayProtocol);
    expect(local.url).toBe(ways.find((w) => w.relayProtocol === local.relayProtocol)?.url);
    expect(local.address).toBe(NET.turnPublic);
    expect(remote.address).toBe(NET.webPublic);
  }
  expect(await firewallDrops(), 'packets the guest firewall dropped').toBeGreaterThan(0);
  for (const { local } of await expectSelectedPairs(call.agent.page, 'agent')) {
    expect(local.candidateType, `agent: ${JSON.stringify(local)}`).not.toBe('relay');
  }
}

const relayed = [
  {
    title: 'when the guest network blocks UDP, then the guest media goes through the TURN relay over TCP',
    firewall: 'no-udp',
    name: 'tcp',
    // TCP to 3478 and TLS (over TCP) to 443 are both open: Chromium nominates whichever pair connects
    // first (a clean-clone run chose TLS), and either is the relay over TCP
    ways: [
      { relayProtocol: 'tcp', url: `turn:${NET.turnName}:3478?transport=tcp` },
      { relayProtocol: 'tls', url: `turns:${NET.turnName}:443?transport=tcp` },
    ],
  },
  {
    title:
      'when the guest network lets only TCP to port 443 out, then the page, the signalling and the media all go over 443, the media through TURN over TLS',
    firewall: 'tcp443-only',
    name: 'tls',
    ways: [{ relayProtocol: 'tls', url: `turns:${NET.turnName}:443?transport=tcp` }],
  },
] as const;

for (const journey of relayed) {
  test(journey.title, async ({}, testInfo) => {
    await guestFirewall(journey.firewall);

    const call = await callAcrossTheNetwork(`turn-${journey.name}`);

    await expectGuestRelayed(call, journey.ways);
    await screenshot(call.guest.page, testInfo, `turn-${journey.name}-guest-ongoing`);
    await hangUp(call.agent.page);
  });
}
