/**
 * The running test stack as an operator sees it: its addresses behind nginx, its TLS certificate, and
 * its servers, which a journey may restart through the project's own scripts (scripts/lib/stack.sh).
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** nginx's TLS address of the test stack (scripts/test exports HTTPS_PORT). */
export const HTTPS_BASE_URL = `https://127.0.0.1:${process.env.HTTPS_PORT ?? '8443'}`;

/** The certificate nginx serves (the development CA's, made by infra/lib.sh lobby_gen_tls). */
export function tlsFiles(): { ca: string; cert: string } {
  const dir = path.join(process.env.LOBBY_RUN_DIR ?? '.run', 'tls');
  return {
    ca: fs.readFileSync(path.join(dir, 'ca.pem'), 'utf8'),
    cert: fs.readFileSync(path.join(dir, 'server.pem'), 'utf8'),
  };
}

/**
 * Chromium's switch that trusts exactly this certificate's key (base64 SHA-256 of its SPKI), so that a
 * browser opens the https stack without a warning and without trusting anything else.
 */
export function trustStackCertificateArg(): string {
  const key = new crypto.X509Certificate(tlsFiles().cert).publicKey.export({ type: 'spki', format: 'der' });
  return `--ignore-certificate-errors-spki-list=${crypto.createHash('sha256').update(key).digest('base64')}`;
}

/** Stops and starts one server of the stack with the scripts' own functions (stop_NAME, start_NAME). */
export async function restartServer(name: 'server' | 'nginx' | 'ejabberd' | 'janus', extraEnv: Record<string, string> = {}): Promise<void> {
  await run('bash', ['-c', `. scripts/lib/stack.sh && stop_${name} && start_${name}`], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    // a setting of the deployment for one test (e.g. LOBBY_SENTRY_DSN); a restart without it restores the stack
    env: { ...process.env, ...extraEnv },
    timeout: 90_000,
  });
}

type StackServer = 'server' | 'gate' | 'nginx' | 'ejabberd' | 'janus';

async function stackScript(script: string): Promise<string> {
  const { stdout } = await run('bash', ['-c', `. scripts/lib/stack.sh && ${script}`], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: process.env,
    timeout: 90_000,
  });
  return stdout;
}

/** Stops one server of the test stack (TERM by the PID under the slot's run dir, scripts/lib/stack.sh). */
export async function stopServer(name: StackServer): Promise<void> {
  await stackScript(`stop_${name}`);
}

/** Starts one server of the test stack again (with the scripts' own start_NAME; waits until it answers). */
export async function startServer(name: StackServer): Promise<void> {
  await stackScript(`start_${name}`);
}

/**
 * Kills one server of the test stack at once (SIGKILL by its PID, as a crash would), nothing cleaned up;
 * `janus-2` is the scale stage's second Janus node (scripts/lib/stack.sh: start_janus starts it again).
 * Resolves with the kill's time (epoch ms, read right before the signal): starting the script takes
 * a second or more on a busy machine, which a time measured from the call would count as the outage's.
 */
export async function killServer(name: StackServer | 'janus-2'): Promise<number> {
  const out = await stackScript(`pid=$(lobby_pid ${name}) && echo "killed-at $(date +%s%3N)" && kill -KILL "$pid" && while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done; rm -f "$(lobby_pidfile ${name})"`);
  const at = Number(/killed-at (\d+)/.exec(out)?.[1]);
  if (!Number.isFinite(at)) throw new Error(`killServer ${name}: no kill time in the script's output: ${out}`);
  return at;
}

/** One request to Janus's admin API (loopback, JANUS_ADMIN_SECRET of the run); throws unless it succeeded. */
export async function janusAdmin<T extends object>(request: Record<string, unknown>): Promise<T> {
  const url = process.env.JANUS_ADMIN_URL ?? 'http://127.0.0.1:7088/admin';
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ transaction: crypto.randomBytes(6).toString('hex'), admin_secret: process.env.JANUS_ADMIN_SECRET ?? '', ...request }),
  });
  const answer = (await res.json()) as T & { janus?: string; error?: { reason?: string } };
  if (answer.janus !== 'success') throw new Error(`Janus admin: ${answer.error?.reason ?? JSON.stringify(answer)}`);
  return answer;
}

/** Asks Janus's admin API whether a videoroom room exists. */
export async function janusRoomExists(room: string): Promise<boolean> {
  const answer = await janusAdmin<{ response?: { exists?: boolean } }>({
    janus: 'message_plugin',
    plugin: 'janus.plugin.videoroom',
    request: { request: 'exists', room },
  });
  return answer.response?.exists === true;
}


/**
 * The real JIDs in an XMPP room, as ejabberd's HTTP API (loopback, the stack's EJABBERD_API_URL) lists
 * them: the first node that answers (a cluster's nodes each find a room on any node, scripts/lib/ejabberd-cluster.sh).
 */
export async function roomOccupants(roomJid: string): Promise<string[]> {
  const urls = (process.env.EJABBERD_API_URL ?? 'http://127.0.0.1:5281/api').split(',');
  const [name = '', service = ''] = roomJid.split('@');
  let res: Response | null = null;
  for (const url of urls) {
    res = await fetch(`${url}/get_room_occupants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, service }),
    }).catch(() => null);
    if (res?.ok) break;
  }
  if (!res?.ok) return [];
  const list = (await res.json()) as ({ jid?: string } | string[])[];
  return list.map((o) => (Array.isArray(o) ? (o[0] ?? '') : (o.jid ?? '')));
}
