/**
 * Attacker suite, TURN (OWASP ASVS 5.0 V17.1.1, docs/security.md "TURN"): the production
 * coturn config (infra/coturn/turnserver.production.conf.tmpl) refuses to relay to loopback and private
 * addresses, so a TURN credential cannot reach the host's own services or its private network. The
 * test stack's coturn (turnserver.conf.tmpl, loopback-only machine) must allow loopback, and does: the
 * control. The production config runs here in a coturn of the test's own, on loopback ports of the slot.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { permissionTo, permissionsTo } from '../support/turn.ts';

const TEMPLATE = path.resolve(import.meta.dirname, '../../infra/coturn/turnserver.production.conf.tmpl');
const TEST_TURN_PORT = Number(process.env.TURN_PORT ?? 3478);
const SECRET = process.env.TURN_SECRET ?? '';
/** a port beside the stack's coturn, inside this slot's range (ports shift by 10 per slot) */
const PROD_PORT = TEST_TURN_PORT + 5;

function renderProduction(dir: string): string {
  const [min, max] = (process.env.TURN_RELAY_RANGE ?? '49160-49259').split('-').map(Number) as [number, number];
  const values: Record<string, string> = {
    TURN_LISTEN_IP: '127.0.0.1',
    TURN_RELAY_IP: '127.0.0.1',
    TURN_EXTERNAL_IP: '127.0.0.1',
    TURN_MIN_PORT: String(max - 9),
    TURN_MAX_PORT: String(max),
    XMPP_DOMAIN: 'prod.test',
    TURN_SECRET: SECRET,
    TURN_TLS_CERT: path.join(dir, 'none.pem'),
    TURN_TLS_KEY: path.join(dir, 'none.key'),
    TURN_TLS_PORT: '5349', // replaced by no-tls below
    TURN_PID_FILE: path.join(dir, 'turnserver.pid'),
    TURN_LOG_FILE: path.join(dir, 'turn.log'),
    TURN_ALLOWED_PEERS: '', // a deployment's exception to the denied ranges: none here
  };
  expect(min).toBeLessThan(max - 9);
  const conf = fs
    .readFileSync(TEMPLATE, 'utf8')
    .replace(/@@([A-Z0-9_]+)@@/g, (_m, name: string) => values[name] ?? `@@${name}@@`)
    .replace(/^listening-port=.*$/m, `listening-port=${PROD_PORT}`)
    .replace(/^tls-listening-port=.*$/m, 'no-tls')
    .replace(/^pidfile=.*$/m, `pidfile=${path.join(dir, 'turnserver.pid')}`)
    .replace(/^log-file=.*$/m, `log-file=${path.join(dir, 'turn.log')}`);
  expect(conf, 'every placeholder of the production template is known').not.toMatch(/@@[A-Z0-9_]+@@/);
  const file = path.join(dir, 'turnserver.conf');
  fs.writeFileSync(file, conf);
  return file;
}

test('when a TURN client asks the production relay for a loopback or private peer, then it is refused (the test relay allows loopback)', async () => {
  expect(SECRET, 'TURN_SECRET from the stack').not.toBe('');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lobby-turn-'));
  let coturn: ChildProcess | null = null;
  try {
    // arrange: the production config in a coturn of our own
    coturn = spawn('turnserver', ['-c', renderProduction(dir)], { stdio: 'ignore' });
    await expect
      .poll(async () => permissionTo(PROD_PORT, SECRET, '198.18.0.1').catch(() => 'down'), { timeout: 10_000 })
      .not.toBe('down');

    // act + assert: the production relay refuses loopback and private peers, allows a public one
    const denied = ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0'];
    const answers = await permissionsTo(PROD_PORT, SECRET, [...denied, '8.8.8.8']);
    denied.forEach((peer, i) => expect(answers[i], `production relay to ${peer}`).toBe(403));
    expect(answers[denied.length], 'production relay to a public peer').toBe('ok');
    // control: the loopback-only test relay does allow loopback (which is why it is a separate config)
    expect(await permissionTo(TEST_TURN_PORT, SECRET, '127.0.0.1'), 'test relay to 127.0.0.1').toBe('ok');
  } finally {
    coturn?.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
