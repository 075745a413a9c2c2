/**
 * ejabberd's guest events reach whichever Lobby server instance is alive (docs/operations.md "Scaling",
 * "Calls whose guest vanished"): the config the scripts render lists every instance's URL
 * (infra/ejabberd/ejabberd.yml.tmpl, scripts/lib/instances.sh), and mod_lobby_events, compiled as the
 * scripts compile it, posts a batch that one instance does not take to the next.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './freePort.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const runDir = mkdtempSync(path.join(tmpdir(), 'lobby-ejabberd-events-'));
// ejabberd's user reaches its folders where they are (infra/lib.sh lobby_home_for)
chmodSync(runDir, 0o755);
const baseEnv = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: '/root',
  LOBBY_RUN_DIR: runDir,
  LOBBY_CONF: 'none',
  LOBBY_API_PORT: '8081',
};

function bash(script: string, env: NodeJS.ProcessEnv): string {
  return execFileSync('bash', ['-c', `set -euo pipefail; . scripts/lib/stack.sh >/dev/null; ${script}`], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
}

/**
 * The `urls` of mod_lobby_events in the ejabberd.yml that lobby_gen_ejabberd (./scripts/start,
 * ./scripts/configure) generates with `env`, in a run dir of its own.
 */
function generatedUrls(name: string, env: NodeJS.ProcessEnv): string[] {
  const dir = path.join(runDir, name);
  bash('lobby_gen_ejabberd', { ...env, LOBBY_RUN_DIR: dir });
  const text = readFileSync(path.join(dir, 'ejabberd', 'conf', 'ejabberd.yml'), 'utf8');
  const lines = text.slice(text.indexOf('  mod_lobby_events:\n')).split('\n').slice(1);
  const options = lines.slice(0, lines.findIndex((l) => !l.startsWith('    ')));
  expect(options.filter((l) => /^ {4}url:/.test(l))).toEqual([]);
  const first = options.indexOf('    urls:');
  expect(first).toBeGreaterThan(-1);
  return options
    .slice(first + 1)
    .filter((l) => l.startsWith('      - '))
    .map((l) => JSON.parse(l.slice('      - '.length)) as string);
}

afterAll(() => rmSync(runDir, { recursive: true, force: true }));

describe('the ejabberd.yml the scripts generate', () => {
  it('when one instance runs, then mod_lobby_events posts to its port', () => {
    expect(generatedUrls('one', baseEnv)).toEqual(['http://127.0.0.1:8081/api/ejabberd-events']);
  }, 30_000);

  it('when LOBBY_INSTANCES=3 on PostgreSQL, then mod_lobby_events lists each instance, instance 1 first', () => {
    const env = { ...baseEnv, LOBBY_INSTANCES: '3', DATABASE_URL: 'postgres://lobby:pw@127.0.0.1:5432/lobby' };
    expect(generatedUrls('three', env)).toEqual([
      'http://127.0.0.1:8081/api/ejabberd-events',
      'http://127.0.0.1:9081/api/ejabberd-events',
      'http://127.0.0.1:10081/api/ejabberd-events',
    ]);
  }, 30_000);
});

interface Post {
  port: number;
  authorization: string | undefined;
  body: string;
}

/** A stand-in for a Lobby server instance that answers every post with `status` and records it. */
async function instance(status: number, posts: Post[]): Promise<{ port: number; close: () => Promise<void> }> {
  const port = await freePort();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      posts.push({ port, authorization: req.headers.authorization, body });
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const url = (port: number) => `http://127.0.0.1:${port}/api/ejabberd-events`;
const leave = '{"events":[{"type":"leave","room":"r1","user":"g1"}]}';
const join = '{"events":[{"type":"join","room":"r2","user":"g2"}]}';

describe('mod_lobby_events', () => {
  const ebin = path.join(runDir, 'module', 'ebin');
  let ejabberdEbin = '';

  beforeAll(() => {
    // compiled exactly as the scripts compile it for ejabberd (infra/lib.sh lobby_build_ejabberd_modules)
    ejabberdEbin = bash(
      `EJ_DIR="${path.dirname(ebin)}"; lobby_build_ejabberd_modules; dirname "$(find /usr/lib -name ejabberd_hooks.beam -path '*ejabberd*' | head -n1)"`,
      baseEnv,
    ).trim();
  }, 120_000);

  /**
   * The module's batching process on its own, with `options` as ejabberd's config would give them (gen_mod
   * reads a module's options from its table ejabberd_modules): the guest leaves a room, 2.5 s later
   * another guest joins one, each posted after its half second.
   */
  async function runModule(options: string): Promise<void> {
    const host = '<<"guest.lobby.test">>';
    // not execFileSync: the stand-in instances answer from this process's event loop
    await promisify(execFile)(
      'erl',
      [
        '-noshell',
        '-pa', ebin,
        '-pa', ejabberdEbin,
        '-eval',
        `ets:new(ejabberd_modules, [named_table, public, {keypos, 2}]),
         ets:insert(ejabberd_modules, {ejabberd_module, {mod_lobby_events, ${host}},
           #{guest_host => ${host}, muc_host => <<"conference.lobby.test">>, secret => <<"s3cret">>, ${options}}, 50}),
         {ok, Pid} = gen_server:start(mod_lobby_events, [${host}], []),
         gen_server:cast(Pid, {event, [{type, <<"leave">>}, {room, <<"r1">>}, {user, <<"g1">>}]}),
         timer:sleep(2500),
         gen_server:cast(Pid, {event, [{type, <<"join">>}, {room, <<"r2">>}, {user, <<"g2">>}]}),
         timer:sleep(2500),
         halt().`,
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
  }

  it('when the first instance refuses and the second answers 503, then the third takes the batch, and the next batch goes straight to it', async () => {
    // arrange: instance 1 down (nothing listens), instance 2 draining (503), instance 3 taking
    const posts: Post[] = [];
    const down = await freePort();
    const draining = await instance(503, posts);
    const taking = await instance(204, posts);
    try {
      // act
      await runModule(`url => <<>>, urls => [<<"${url(down)}">>, <<"${url(draining.port)}">>, <<"${url(taking.port)}">>]`);
    } finally {
      await draining.close();
      await taking.close();
    }

    // assert: the leave tried instance 2 then 3; the join went to 3 alone, after the leave
    expect(posts).toEqual([
      { port: draining.port, authorization: 'Bearer s3cret', body: leave },
      { port: taking.port, authorization: 'Bearer s3cret', body: leave },
      { port: taking.port, authorization: 'Bearer s3cret', body: join },
    ]);
  }, 90_000);

  it('when the config gives one `url` (no `urls`), then the batches are posted to it', async () => {
    const posts: Post[] = [];
    const taking = await instance(204, posts);
    try {
      await runModule(`url => <<"${url(taking.port)}">>, urls => []`);
    } finally {
      await taking.close();
    }
    expect(posts.map((p) => p.body)).toEqual([leave, join]);
  }, 90_000);
});
