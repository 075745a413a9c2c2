/**
 * The real-network test bed as the journeys see it (scripts/lib/netns.sh, scripts/test e2e-network):
 * browsers started inside the guest's or the agent's namespace, the guest's firewall and line, and what
 * getStats() says about the path the media took.
 */
import { expect, type Page } from '@playwright/test';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { launchParticipant, type LaunchedBrowser } from '../support/browser.ts';

const run = promisify(execFile);
const NETNS_SCRIPT = path.resolve(import.meta.dirname, '../../scripts/lib/netns.sh');

/** The addresses of scripts/lib/netns.sh: the server's public (1:1 NAT) ones and the guest's private one. */
export const NET = {
  webPublic: '203.0.113.200',
  turnPublic: '203.0.113.201',
  /** coturn's public address by name: scripts/test's TURN_HOST, so the browsers resolve the TURN URLs they get */
  turnName: 'turn.lobby.test',
  guestPrivate: '192.0.2.2',
  guestNatPublic: '203.0.113.2',
  agent: '203.0.113.66',
} as const;

export const NET_BASE_URL = process.env.LOBBY_BASE_URL ?? `https://${NET.webPublic}`;

/**
 * Only records every RTCPeerConnection in window.__lobbyPeerConnections (for getStats); unlike the
 * loopback journeys' script it keeps every ICE candidate, since here the candidates are the subject.
 */
const RECORD_PEER_CONNECTIONS = `(() => {
  const Native = window.RTCPeerConnection;
  if (!Native || Native.__lobbyWrapped) return;
  const all = (window.__lobbyPeerConnections = []);
  class RecordedPeerConnection extends Native {
    constructor(...args) {
      super(...args);
      all.push(this);
    }
  }
  RecordedPeerConnection.__lobbyWrapped = true;
  window.RTCPeerConnection = RecordedPeerConnection;
})();`;

/** Chromium's switch that trusts exactly the network stack's certificate (nginx and coturn serve it). */
function trustNetCertificateArg(): string {
  const pem = fs.readFileSync(process.env.LOBBY_NET_CERT ?? '', 'utf8');
  const key = new crypto.X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' });
  return `--ignore-certificate-errors-spki-list=${crypto.createHash('sha256').update(key).digest('base64')}`;
}

/** A participant's Chromium, started inside its namespace by scripts/test's wrapper. */
export function launchIn(role: 'guest' | 'agent', tag: string): Promise<LaunchedBrowser> {
  const executablePath =
    process.env[role === 'guest' ? 'LOBBY_NET_GUEST_CHROMIUM' : 'LOBBY_NET_AGENT_CHROMIUM'];
  if (!executablePath)
    throw new Error('run through ./scripts/test (stage e2e-network): no namespace wrapper');
  return launchParticipant(tag, {
    executablePath,
    baseURL: NET_BASE_URL,
    initScript: RECORD_PEER_CONNECTIONS,
    // Chromium keeps the last of a repeated switch: this one replaces the loopback journeys' rules,
    // which resolve nothing but loopback (IP literals included)
    extraArgs: [
      trustNetCertificateArg(),
      // the TURN host name (a deployment's DNS), the addresses as they are, no other name
      `--host-resolver-rules=MAP ${NET.turnName} ${NET.turnPublic}, MAP * ~NOTFOUND, EXCLUDE ${NET.webPublic}, EXCLUDE ${NET.turnPublic}`,
    ],
    ...(role === 'guest' ? { viewport: { width: 1024, height: 768 } } : {}),
  });
}

async function netns(...args: string[]): Promise<string> {
  const { stdout } = await run('bash', [NETNS_SCRIPT, ...args], { env: process.env, timeout: 20_000 });
  return stdout.trim();
}

/** What the guest's home router lets out: everything, no UDP, or only TCP to port 443. */
export const guestFirewall = (policy: 'open' | 'no-udp' | 'tcp443-only') => netns('policy', policy);
/** The guest's network gone (both directions dropped at its router) or back (scripts/lib/netns.sh cut). */
export const cutGuestNetwork = (on: boolean) => netns('cut', on ? 'on' : 'off');
/** Packets the cut dropped so far. */
export const cutDrops = async () => Number((await netns('cut-count')) || 0);
/** The guest's line shaped in both directions with tbf (e.g. '300kbit'), or back to the full veth. */
export const shapeGuestLine = (rate: string) => netns('shape', rate);
export const unshapeGuestLine = () => netns('unshape');
/** the guest's router drops `percent` % of what the guest sends, at random (0: none) */
export const guestUplinkLoss = (percent: number) => netns('loss', String(percent));
/** Bytes that went through the tbf queues: up (the guest's egress) and down (its router's towards it). */
export async function shapedBytes(): Promise<{ up: number; down: number }> {
  const [up, down] = (await netns('shaped-bytes')).split(' ').map(Number);
  return { up: up ?? 0, down: down ?? 0 };
}
/** UDP flows the guest's router masqueraded so far. */
export const natUdpFlows = async () => Number(await netns('nat-count'));
/** Packets the guest's firewall dropped so far. */
export const firewallDrops = async () => Number((await netns('drop-count')) || 0);

export interface Candidate {
  candidateType: string;
  address: string;
  port: number;
  protocol: string;
  relayProtocol?: string;
  url?: string;
}

/** The selected candidate pair of every open peer connection of the page (getStats transport stats). */
export async function selectedPairs(page: Page): Promise<{ local: Candidate; remote: Candidate }[]> {
  return page.evaluate(async () => {
    const pcs = (
      (window as unknown as { __lobbyPeerConnections?: RTCPeerConnection[] }).__lobbyPeerConnections ?? []
    ).filter((pc) => pc.connectionState === 'connected');
    const pairs = [];
    for (const pc of pcs) {
      const stats = new Map<string, Record<string, string | undefined>>();
      (await pc.getStats()).forEach((s: Record<string, string | undefined>) => stats.set(s.id ?? '', s));
      for (const s of stats.values()) {
        if (s.type !== 'transport' || !s.selectedCandidatePairId) continue;
        const pair = stats.get(s.selectedCandidatePairId);
        const local = pair && stats.get(pair.localCandidateId ?? '');
        const remote = pair && stats.get(pair.remoteCandidateId ?? '');
        if (local && remote) pairs.push({ local, remote });
      }
    }
    return pairs as unknown as { local: Candidate; remote: Candidate }[];
  });
}

/** Waits until every connected peer connection of the page has a selected pair, and returns them. */
export async function expectSelectedPairs(page: Page, who: string) {
  await expect
    .poll(async () => (await selectedPairs(page)).length, { message: `${who}: a selected candidate pair` })
    .toBeGreaterThan(0);
  return selectedPairs(page);
}

/** The network stack's run dir (scripts/test: its certificate is `{run dir}/tls/server.pem`). */
const netRunDir = () => path.dirname(path.dirname(process.env.LOBBY_NET_CERT ?? ''));

/** A call's end and exit times as the network stack's server recorded them (its SQLite database). */
export async function netReportTimes(callId: string): Promise<{ call_ended_at: number | null; guest_exit_at: number | null } | undefined> {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path.join(netRunDir(), 'data', 'lobby.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('select call_ended_at, guest_exit_at from call_reports where call_id = ?').get(callId) as
      | { call_ended_at: number | null; guest_exit_at: number | null }
      | undefined;
  } finally {
    db.close();
  }
}

/**
 * Asks the network stack's Janus (its admin API listens on 127.0.0.1 inside the public namespace)
 * whether a videoroom room exists.
 */
export async function netJanusRoomExists(room: string): Promise<boolean> {
  // the network stack started with the test run's environment, whose secrets win over its own file's
  const secret =
    process.env.JANUS_ADMIN_SECRET ??
    /^JANUS_ADMIN_SECRET=(.*)$/m.exec(fs.readFileSync(path.join(netRunDir(), 'secrets.env'), 'utf8'))?.[1] ??
    '';
  const url = process.env.JANUS_ADMIN_URL ?? `http://127.0.0.1:${process.env.JANUS_ADMIN_PORT ?? '7088'}/admin`;
  const body = JSON.stringify({
    janus: 'message_plugin',
    transaction: crypto.randomBytes(6).toString('hex'),
    admin_secret: secret,
    plugin: 'janus.plugin.videoroom',
    request: { request: 'exists', room },
  });
  const ns = `lobby${process.env.LOBBY_TEST_SLOT ?? '0'}-pub`;
  const { stdout } = await run('ip', ['netns', 'exec', ns, 'curl', '-s', '--max-time', '5', '-H', 'content-type: application/json', '-d', body, url]);
  const answer = JSON.parse(stdout) as { janus?: string; response?: { exists?: boolean }; error?: { reason?: string } };
  if (answer.janus !== 'success') throw new Error(`Janus admin: ${answer.error?.reason ?? stdout}`);
  return answer.response?.exists === true;
}
