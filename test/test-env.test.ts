/**
 * The test stack is hermetic (scripts/lib/test-env.sh): a deployment's settings file on the machine
 * that runs the suite cannot move the test stack's folders, ports or database. A planted lobby.conf
 * stands for the machine's /etc/lobby/lobby.conf (scripts/lib/conf.sh reads whichever LOBBY_CONF names).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const dir = mkdtempSync(path.join(tmpdir(), 'lobby-conf-'));
const planted = path.join(dir, 'lobby.conf');
writeFileSync(
  planted,
  [
    'LOBBY_RUN_DIR=/var/lib/lobby/run',
    'LOBBY_DATA_DIR=/var/lib/lobby/data',
    'PORT=80',
    'DATABASE_URL=postgres://lobby:x@127.0.0.1/lobby',
  ].join('\n') + '\n',
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a bash snippet from the repository's root with the planted file as the machine's conf; prints KEY=VALUE lines. */
function settingsAfter(snippet: string): Record<string, string> {
  const out = execFileSync(
    'bash',
    [
      '-c',
      `set -euo pipefail; lobby_root=$PWD; ${snippet}; . scripts/lib/conf.sh; lobby_load_conf; printf '%s\\n' "LOBBY_RUN_DIR=$LOBBY_RUN_DIR" "LOBBY_DATA_DIR=$LOBBY_DATA_DIR" "PORT=$PORT" "DATABASE_URL=\${DATABASE_URL:-}"`,
    ],
    { cwd: root, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LOBBY_CONF: planted }, encoding: 'utf8' },
  );
  return Object.fromEntries(
    out
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

describe('the settings file of a deployment (scripts/lib/conf.sh)', () => {
  it('when a deployment configures, then its lobby.conf sets the folders, the port and the database', () => {
    const settings = settingsAfter(':');
    expect(settings).toEqual({
      LOBBY_RUN_DIR: '/var/lib/lobby/run',
      LOBBY_DATA_DIR: '/var/lib/lobby/data',
      PORT: '80',
      DATABASE_URL: 'postgres://lobby:x@127.0.0.1/lobby',
    });
  }, 30_000);

  it('when the test suite sets up its stack on a machine with a lobby.conf, then the test stack keeps its own folders, ports and database', () => {
    const settings = settingsAfter('LOBBY_TEST_SLOT=6 . scripts/lib/test-env.sh');
    expect(settings).toEqual({
      LOBBY_RUN_DIR: `${root}/.run/test-6`,
      LOBBY_DATA_DIR: `${root}/.run/test-6/data`,
      PORT: '8150',
      DATABASE_URL: '',
    });
  }, 30_000);

  it('when a file named on purpose is missing, then configure stops naming it', () => {
    expect(() =>
      execFileSync('bash', ['-c', '. scripts/lib/conf.sh; lobby_load_conf'], {
        cwd: root,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LOBBY_CONF: path.join(dir, 'absent.conf') },
        stdio: 'pipe',
      }),
    ).toThrow(/LOBBY_CONF=.*absent\.conf does not exist/);
  }, 30_000);
});

describe('LOBBY_HTTPS_REDIRECT (scripts/lib/env.sh, docs/operations.md "HTTP and HTTPS")', () => {
  const redirectWith = (env: Record<string, string>) =>
    execFileSync('bash', ['-c', '. scripts/lib/env.sh >/dev/null; echo "$LOBBY_HTTPS_REDIRECT"'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LOBBY_RUN_DIR: dir, ...env },
      encoding: 'utf8',
    }).trim();

  it("when the operator gives a certificate, then plain HTTP redirects by default; without one (development) it serves; a setting wins", () => {
    expect(redirectWith({ LOBBY_TLS_CERT: '/etc/letsencrypt/live/x/fullchain.pem' })).toBe('1');
    expect(redirectWith({})).toBe('0');
    expect(redirectWith({ LOBBY_TLS_CERT: '/etc/letsencrypt/live/x/fullchain.pem', LOBBY_HTTPS_REDIRECT: '0' })).toBe('0');
  }, 30_000);
});
