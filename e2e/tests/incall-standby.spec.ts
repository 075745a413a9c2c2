/**
 * The agent's standby media session (docs/protocol.md "The agent's standby session"): while a
 * guest waits, the console makes its Janus session and both handles with its standby token (this agent,
 * no room), through the real gate and Janus; the answer then creates and attaches nothing, its join goes
 * out with the room's token, and media flows both ways. What Janus is sent is read off the console's own
 * websocket to /janus.
 */
import { expect, test } from '@playwright/test';
import { closeAll, screenshot } from '../support/journey.ts';
import { expectMediaFlowing } from '../support/media.ts';
import { guestCallsAndWaits, launchPair } from './incall-support.ts';

interface Sent {
  janus?: string;
  token?: string;
  body?: { request?: string; ptype?: string };
}

test('when a guest waits, then the console makes its Janus session ahead with its standby token, and the answer creates none: it joins with the room token and media flows both ways', async ({}, testInfo) => {
  const { agent, guest } = await launchPair();
  try {
    // arrange: every request the console sends to Janus
    const sent: Sent[] = [];
    agent.page.on('websocket', (ws) => {
      if (!new URL(ws.url()).pathname.startsWith('/janus')) return;
      ws.on('framesent', (frame) => {
        try {
          sent.push(JSON.parse(String(frame.payload)) as Sent);
        } catch {
          // not JSON: not a Janus request
        }
      });
    });
    const { item, callId } = await guestCallsAndWaits(agent, guest);

    // the standby session: made while the guest waits, with a token of this agent for no room
    await expect(agent.page.getByTestId('queue-panel')).toHaveAttribute('data-media-ready', 'true');
    const create = sent.find((m) => m.janus === 'create');
    expect(create?.token, 'the standby session is created with a token').toBeTruthy();
    expect(create!.token).toContain('as=agent');
    expect(create!.token).not.toContain('room=');
    expect(sent.filter((m) => m.janus === 'attach')).toHaveLength(2);
    const before = sent.length;

    // act
    await item.getByTestId('answer-button').click();

    // assert: media both ways, and the answer made no session and attached no handle
    await expectMediaFlowing(guest.page, 'guest');
    await expectMediaFlowing(agent.page, 'agent');
    const answer = sent.slice(before);
    expect(answer.filter((m) => m.janus === 'create' || m.janus === 'attach')).toEqual([]);
    const join = answer.find((m) => m.janus === 'message' && m.body?.request === 'join' && m.body.ptype === 'publisher');
    expect(join?.token, "the agent's join").toContain(`room=${callId}`);
    await expect(agent.page.getByTestId('queue-panel')).toHaveAttribute('data-media-ready', 'false');
    await screenshot(agent.page, testInfo, 'standby-answered-agent');
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});
