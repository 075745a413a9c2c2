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
export async function restartServer(name: 'server' | 'nginx' | 'ejabberd' | 'janus'): Promise<void> {
  await run('bash', ['-c', `. scripts/lib/stack.sh && stop_${name} && start_${name}`], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: process.env,
    timeout: 90_000,
  });
}
