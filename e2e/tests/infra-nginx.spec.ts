/**
 * nginx in front of the stack: the built apps compressed and cached right, TLS with the
 * stack's certificate, and the Lobby server restarted behind nginx while a call runs without touching
 * the call's media (the browsers reach ejabberd and Janus through nginx, not through the server).
 */
import { expect, test } from '@playwright/test';
import http from 'node:http';
import https from 'node:https';
import { launchParticipant } from '../support/browser.ts';
import { BASE_URL, DEMO_AGENT } from '../support/api.ts';
import { expectReportEnded } from '../support/db.ts';
import { closeAll, screenshot } from '../support/journey.ts';
import { decodedFramesDuring, expectMediaFlowing } from '../support/media.ts';
import { guestCallsAndAgentAnswers } from './incall-support.ts';
import { HTTPS_BASE_URL, restartServer, tlsFiles, trustStackCertificateArg } from '../support/stack.ts';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A plain GET with exactly the Accept-Encoding given (fetch would add its own and decode). */
function get(url: string, acceptEncoding: string, ca?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const client = url.startsWith('https:') ? https : http;
    const request = client.get(
      url,
      { headers: { 'accept-encoding': acceptEncoding }, ...(ca ? { ca } : {}) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('latin1'),
          }),
        );
      },
    );
    request.on('error', reject);
  });
}

test('when the guest page loads through nginx, then its hashed scripts come compressed with a year of cache and the page itself is never cached', async () => {
  // arrange: the page names its hashed entry script
  const page = await get(`${BASE_URL}/`, 'identity');
  expect(page.status).toBe(200);
  const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
  expect(script, 'the guest page names a hashed script under /assets/').toBeTruthy();

  // act: fetch it as a brotli-capable browser, a gzip-only client, and a client that takes neither
  const br = await get(`${BASE_URL}${script}`, 'br, gzip');
  const gzip = await get(`${BASE_URL}${script}`, 'gzip');
  const plain = await get(`${BASE_URL}${script}`, 'identity');

  // assert: compressed as asked, a year of immutable cache, smaller on the wire than the file
  expect(br.headers['content-encoding']).toBe('br');
  expect(gzip.headers['content-encoding']).toBe('gzip');
  expect(plain.headers['content-encoding']).toBeUndefined();
  for (const answer of [br, gzip, plain]) {
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  }
  expect(br.body.length).toBeLessThan(plain.body.length / 2);
  expect(gzip.body.length).toBeLessThan(plain.body.length / 2);

  // assert: the documents (guest app and console) are revalidated every time
  const consolePage = await get(`${BASE_URL}/console/`, 'gzip');
  for (const doc of [page, consolePage]) {
    expect(doc.status).toBe(200);
    expect(doc.headers['cache-control']).toMatch(/no-cache|no-store/);
    expect(doc.headers['cache-control']).not.toMatch(/max-age=[1-9]/);
  }
  // and no version of nginx is told
  expect(page.headers.server).toBe('nginx');
});

test("when a company's website loads the widget loader through nginx, then it comes compressed like the app's own scripts", async () => {
  // act: the loader as a gzip-only client and as a client that takes no compression
  const gzip = await get(`${BASE_URL}/widget.js`, 'gzip');
  const plain = await get(`${BASE_URL}/widget.js`, 'identity');

  // assert: the server answers it as text/javascript, which nginx compressed only once listed
  expect(gzip.status).toBe(200);
  expect(gzip.headers['content-type']).toMatch(/javascript/);
  expect(gzip.headers['content-encoding']).toBe('gzip');
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(gzip.body.length).toBeLessThan(plain.body.length / 2);
  // short cache: a new release of the loader reaches every website within minutes
  expect(gzip.headers['cache-control']).toMatch(/max-age=\d+/);
});

test('when the stack is reached over https, then nginx presents a certificate the stack CA signed for the address', async () => {
  // act: a client that trusts only the stack's CA (no verification switched off)
  const page = await get(`${HTTPS_BASE_URL}/`, 'gzip', tlsFiles().ca);
  const health = await get(`${HTTPS_BASE_URL}/api/health`, 'identity', tlsFiles().ca);

  // assert
  expect(page.status).toBe(200);
  expect(page.headers['content-encoding']).toBe('gzip');
  expect(health.status).toBe(200);
  await expect(get(`${HTTPS_BASE_URL}/`, 'identity')).rejects.toThrow(/certificate/i);
});

test('when a guest and an agent call each other over https, then the whole call works on wss and media flows both ways', async ({}, testInfo) => {
  const trust = trustStackCertificateArg();
  const agent = await launchParticipant('agent-tls', { extraArgs: [trust] });
  const guest = await launchParticipant('guest-tls', { extraArgs: [trust] });
  try {
    // arrange: the agent signs in on the https console
    await agent.page.goto(`${HTTPS_BASE_URL}/console/`);
    await agent.page.getByTestId('login-email').fill(DEMO_AGENT.email);
    await agent.page.getByTestId('login-password').fill(DEMO_AGENT.password);
    await agent.page.getByTestId('login-submit').click();
    await expect(agent.page.locator('[data-screen="workspace"]')).toBeVisible();

    // act: the guest calls from the https page and the agent answers
    await guest.page.goto(`${HTTPS_BASE_URL}/`);
    expect(await guest.page.evaluate(() => window.isSecureContext && location.protocol)).toBe('https:');
    await guest.page.getByTestId('assignment-option').filter({ hasText: 'Sales' }).click();
    await guest.page.locator('[data-testid="call-button"][data-call-kind="video"]').click();
    const item = agent.page.getByTestId('queue-item');
    await expect(item).toHaveCount(1);
    await item.getByTestId('answer-button').click();

    // assert: media both ways, and the signalling went over TLS websockets
    await expect(guest.page.locator('[data-screen="ongoing"]')).toBeVisible();
    await expectMediaFlowing(guest.page, 'guest');
    await expectMediaFlowing(agent.page, 'agent');
    const sockets = await guest.page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => e.name)
        .filter((n) => n.startsWith('ws')),
    );
    expect(sockets.every((s) => s.startsWith('wss:'))).toBe(true);
    await screenshot(guest.page, testInfo, 'tls-guest-ongoing');
    await agent.page.getByTestId('agent-hangup-button').click();
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});

test('when the Lobby server is restarted behind nginx during a call, then decoded frames never stop on either side and the agent can still end the call', async ({}, testInfo) => {
  const agent = await launchParticipant('agent-restart');
  const guest = await launchParticipant('guest-restart');
  try {
    // arrange: a call with media both ways
    const { callId } = await guestCallsAndAgentAnswers(agent, guest);

    // act: restart the server while sampling both sides' decoded frames
    const frames = await decodedFramesDuring(guest.page, agent.page, async () => {
      await restartServer('server');
      await new Promise((r) => setTimeout(r, 3000)); // Janus would have dropped a lost session by now
    });

    // assert: frames kept coming on both sides: no stretch of 2 s without a new decoded frame (a lost
    // Janus session stops them for good; a loaded machine may pause a renderer for a moment)
    expect(frames.samples).toBeGreaterThan(8);
    expect(frames.longestStall.guest, 'longest stall of decoded frames at the guest (ms)').toBeLessThan(2000);
    expect(frames.longestStall.agent, 'longest stall of decoded frames at the agent (ms)').toBeLessThan(2000);
    await expectMediaFlowing(guest.page, 'guest after the restart');
    await screenshot(agent.page, testInfo, 'restart-agent-call');

    // assert: the API answers the console again, so ending the call closes the report
    await agent.page.getByTestId('agent-hangup-button').click();
    await expect(agent.page.getByTestId('call-idle')).toBeVisible();
    await expectReportEnded(callId);
  } finally {
    await closeAll(testInfo, agent, guest);
  }
});
