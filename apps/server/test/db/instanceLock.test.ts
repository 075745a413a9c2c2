/**
 * SQLite serves one Lobby server (docs/operations.md "Shared state: jobs, limits and files"): a second
 * server process on the same database file exits at once with a message saying why, and the lock goes
 * with the process that held it, however it ended.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/freePort.ts';

const MAIN = path.resolve(import.meta.dirname, '../../src/main.ts');

describe('one server per SQLite database', () => {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  const server = (dataDir: string, port: number) => {
    const child = spawn(process.execPath, [MAIN], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        LOBBY_CONF: 'none',
        LOBBY_DATA_DIR: dataDir,
        DATABASE_URL: `sqlite:${path.join(dataDir, 'lobby.sqlite')}`,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout?.resume();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, exited, stderr: () => stderr };
  };
  /** the server answers (its health is 503 here: no ejabberd, no Janus; the database is what matters) */
  const healthy = async (port: number) => {
    for (let i = 0; i < 600; i++) {
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        async (r) => (await r.text()).includes('"database":"up"'),
        () => false,
      );
      if (ok) return true;
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  };

  it('when a second server starts on the same SQLite file, then it exits non-zero saying another server uses it; once the first dies, a new one starts', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lobby-one-server-'));
    dirs.push(dataDir);
    const firstPort = await freePort();
    const first = server(dataDir, firstPort);
    expect(await healthy(firstPort), first.stderr()).toBe(true);

    // another port: only the database is in common
    const second = server(dataDir, await freePort());
    const code = await Promise.race([second.exited, new Promise<'still running'>((r) => setTimeout(() => r('still running'), 30_000))]);
    expect(code).toBe(1);
    expect(second.stderr()).toContain(`another Lobby server is already running on ${path.join(dataDir, 'lobby.sqlite')}`);
    expect(await healthy(firstPort), 'the first one still serves').toBe(true);

    // a crash, not a clean stop: the system releases the lock with the process
    first.child.kill('SIGKILL');
    await first.exited;
    const thirdPort = await freePort();
    const third = server(dataDir, thirdPort);
    expect(await healthy(thirdPort), third.stderr()).toBe(true);
  }, 120_000);
});
