/**
 * docs/operations.md "Scaling": the operator drains a Janus node with `lobby-admin janus-drain NAME`
 * (run with the server's environment); the drain is in the database, where every instance's placement
 * reads it.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../../src/db/database.ts';
import { createJanusNodesRepository } from '../../src/repositories/janusNodes.ts';

const run = promisify(execFile);

describe('lobby-admin janus-drain, janus-undrain, janus-nodes (the operator commands)', () => {
  const cli = path.resolve(import.meta.dirname, '../../src/cli/lobby-admin.ts');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lobby-janus-cli-'));
  const databaseUrl = `sqlite:${path.join(dir, 'lobby.sqlite')}`;
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    XMPP_JWT_SECRET: 'x'.repeat(40),
    API_TOKEN_SECRET: 'y'.repeat(40),
    SESSION_SECRET: 'z'.repeat(40),
    JANUS_TOKEN_SECRET: 't'.repeat(40),
    JANUS_ROOM_ADMIN_KEY: 'k'.repeat(40),
    EJABBERD_EVENTS_SECRET: 'e'.repeat(40),
    LOBBY_JANUS_NODES:
      'janus-1 ws://127.0.0.1:8188 http://127.0.0.1:8088/janus http://127.0.0.1:7088/admin; janus-2 ws://127.0.0.1:8189 http://127.0.0.1:8089/janus http://127.0.0.1:7089/admin',
  };
  const lobbyAdmin = (...args: string[]) => run(process.execPath, [cli, ...args], { env });
  const states = async () => {
    const db = openDb(databaseUrl);
    try {
      return (await createJanusNodesRepository(db.kysely).list()).map((r) => [r.name, r.state, r.draining]);
    } finally {
      await db.close();
    }
  };
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('when a node is drained, then its row says draining and the list shows it; undrained, it is back to its health', async () => {
    const { stdout } = await lobbyAdmin('janus-drain', 'janus-2');
    expect(stdout).toContain('janus-2: draining');
    // never checked yet: down, and drained
    expect(await states()).toEqual([
      ['janus-1', 'down', 0],
      ['janus-2', 'down', 1],
    ]);
    const list = await lobbyAdmin('janus-nodes');
    expect(list.stdout).toMatch(
      /^janus-1\tdown\trooms 0\tsessions 0\tlast answer never\tws:\/\/127\.0\.0\.1:8188$/m,
    );
    await lobbyAdmin('janus-undrain', 'janus-2');
    expect(await states()).toEqual([
      ['janus-1', 'down', 0],
      ['janus-2', 'down', 0],
    ]);
  });

  it('when the node is not configured or not named, then it exits 2 naming the problem', async () => {
    await expect(lobbyAdmin('janus-drain', 'janus-9')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        'no Janus node named "janus-9" (LOBBY_JANUS_NODES has janus-1, janus-2)',
      ) as unknown,
    });
    await expect(lobbyAdmin('janus-drain')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('janus-drain takes one node name') as unknown,
    });
  });
});
