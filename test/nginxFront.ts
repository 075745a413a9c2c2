/** nginx as the scripts generate it (infra/lib.sh lobby_gen_nginx), started on free loopback ports for a test. */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './freePort.ts';

const root = path.resolve(import.meta.dirname, '..');

export interface Front {
  http: number;
  https: number;
  ca: string;
  acmeDir: string;
  stop: () => Promise<void>;
}

/** Generates nginx's config with the scripts' own lobby_gen_nginx and starts nginx on it. */
export async function startFront(redirect: '0' | '1', apiPort: number, extraEnv: Record<string, string> = {}): Promise<Front> {
  const runDir = mkdtempSync(path.join(tmpdir(), 'lobby-nginx-'));
  chmodSync(runDir, 0o755); // nginx's workers (www-data when root) read the challenge files in it
  const ports = { http: await freePort(), https: await freePort() };
  const nginxDir = execFileSync(
    'bash',
    [
      '-c',
      // lobby_root is the run dir: no built apps there for lobby_sync_www to copy and compress (none is needed)
      'set -euo pipefail; mkdir -p "$LOBBY_LOG_DIR"; lobby_root=$LOBBY_RUN_DIR; . scripts/lib/env.sh; . infra/lib.sh; lobby_gen_nginx >/dev/null; echo "$NGINX_DIR"',
    ],
    {
      cwd: root,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        LOBBY_RUN_DIR: runDir,
        LOBBY_LOG_DIR: path.join(runDir, 'logs'),
        HOST: '127.0.0.1',
        PORT: String(ports.http),
        HTTPS_PORT: String(ports.https),
        LOBBY_API_PORT: String(apiPort),
        LOBBY_HTTPS_REDIRECT: redirect,
        ...extraEnv,
      },
    },
  ).trim();
  const nginx: ChildProcess = spawn('nginx', ['-c', path.join(nginxDir, 'nginx.conf'), '-p', nginxDir], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 100 && !(await accepts(ports.https)); i++) await new Promise((r) => setTimeout(r, 100));
  return {
    ...ports,
    ca: readFileSync(path.join(runDir, 'tls', 'ca.pem'), 'utf8'),
    acmeDir: path.join(nginxDir, 'acme'),
    stop: async () => {
      const exited = new Promise((r) => nginx.once('exit', r));
      nginx.kill('SIGTERM');
      await exited;
      rmSync(runDir, { recursive: true, force: true });
    },
  };
}

export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

