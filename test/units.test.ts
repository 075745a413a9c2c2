/**
 * The Lobby server, the Janus gate and Janus run as the system user `lobby` under the shipped units
 * (docs/operations.md "Users and folders"): the rendered units say so with their sandbox, and the server
 * and the gate really start as that user with nothing writable but the folders scripts/lib/units.sh gives
 * it (the checkout, the run dir and the rest of the file system belong to root).
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './freePort.ts';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const runDir = mkdtempSync(path.join(tmpdir(), 'lobby-units-'));
chmodSync(runDir, 0o755);
const dataDir = path.join(runDir, 'data');
const baseEnv = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: '/root',
  LOBBY_RUN_DIR: runDir,
  LOBBY_DATA_DIR: dataDir,
  LOBBY_CONF: 'none',
};

function bash(script: string, env: NodeJS.ProcessEnv = baseEnv): string {
  return execFileSync(
    'bash',
    ['-c', `set -euo pipefail; . scripts/lib/stack.sh >/dev/null; . scripts/lib/units.sh; ${script}`],
    { cwd: root, env, encoding: 'utf8' },
  );
}

/** One unit's [Service] settings, each with all its values. */
function service(name: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  const text = readFileSync(path.join(runDir, 'systemd', `${name}.service`), 'utf8');
  const body = text.slice(text.indexOf('[Service]'), text.indexOf('[Install]'));
  for (const line of body.split('\n')) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (match) settings.set(match[1]!, [...(settings.get(match[1]!) ?? []), match[2]!]);
  }
  return settings;
}

afterAll(() => rmSync(runDir, { recursive: true, force: true }));

describe('the units of infra/systemd', () => {
  beforeAll(() => {
    bash(`lobby_render_units "$LOBBY_RUN_DIR/systemd"`);
  }, 30_000);

  it.each([
    ['lobby-server', [dataDir]],
    ['lobby-janus-gate', [dataDir]],
    ['lobby-janus', [dataDir, path.join(runDir, 'logs')]],
  ])(
    'when %s is rendered, then it runs as lobby in a read-only system with only its folders writable',
    (name, writable) => {
      const unit = service(name);
      expect(unit.get('User')).toEqual(['lobby']);
      expect(unit.get('Group')).toEqual(['lobby']);
      expect(unit.get('ProtectSystem')).toEqual(['strict']);
      expect(unit.get('NoNewPrivileges')).toEqual(['true']);
      expect(unit.get('PrivateTmp')).toEqual(['true']);
      expect(unit.get('ProtectHome')).toEqual(['read-only']);
      expect(unit.get('CapabilityBoundingSet')).toEqual(['']);
      expect(unit.get('ReadWritePaths')).toEqual([writable.join(' ')]);
    },
  );

  it('when systemd checks the rendered units, then it accepts them', () => {
    const verify = spawnSync(
      'systemd-analyze',
      [
        'verify',
        ...['lobby-server', 'lobby-janus-gate', 'lobby-janus'].map((n) =>
          path.join(runDir, 'systemd', `${n}.service`),
        ),
      ],
      {
        encoding: 'utf8',
      },
    );
    expect(
      verify.stderr
        .split('\n')
        .filter((l) => /lobby-(server|janus)/.test(l) && !/not found|No such file/.test(l)),
    ).toEqual([]);
  }, 30_000);
});

describe('the units of several Lobby server instances (docs/operations.md "Scaling")', () => {
  const scaled = { ...baseEnv, LOBBY_INSTANCES: '2', DATABASE_URL: 'postgres://lobby:pw@127.0.0.1:5432/lobby' };
  const dir = path.join(runDir, 'systemd-scaled');

  it('when LOBBY_INSTANCES=2 on PostgreSQL, then lobby-server-2 runs on its own port, name and data folder, and lobby.target wants it', () => {
    bash(`lobby_render_units "${dir}"`, scaled);
    const text = readFileSync(path.join(dir, 'lobby-server-2.service'), 'utf8');
    const envFile = path.join(runDir, 'lobby-server-2.env');
    expect(text.match(/^EnvironmentFile=.*$/gm)).toEqual([`EnvironmentFile=${runDir}/lobby.env`, `EnvironmentFile=${envFile}`]);
    expect(text).toMatch(new RegExp(`^ReadWritePaths=${dataDir}-2 ${dataDir}/recordings$`, 'm'));
    expect(readFileSync(envFile, 'utf8').split('\n')).toEqual(
      expect.arrayContaining(['PORT=9081', 'LOBBY_INSTANCE=2', `LOBBY_DATA_DIR=${dataDir}-2`, `LOBBY_RECORDINGS_DIR=${dataDir}/recordings`]),
    );
    expect(readFileSync(path.join(dir, 'lobby.target'), 'utf8')).toMatch(/^Wants=.* lobby-server\.service lobby-server-2\.service /m);
    const verify = spawnSync('systemd-analyze', ['verify', path.join(dir, 'lobby-server-2.service')], { encoding: 'utf8' });
    expect(verify.stderr.split('\n').filter((l) => /lobby-server/.test(l) && !/not found|No such file/.test(l))).toEqual([]);
  }, 30_000);

  it('when LOBBY_JANUS_GATES=2, then lobby-janus-gate-2 runs on its own port and number, and lobby.target wants it', () => {
    const gates = path.join(runDir, 'systemd-gates');
    bash(`lobby_render_units "${gates}"`, { ...baseEnv, LOBBY_JANUS_GATES: '2' });
    const text = readFileSync(path.join(gates, 'lobby-janus-gate-2.service'), 'utf8');
    const envFile = path.join(runDir, 'lobby-janus-gate-2.env');
    expect(text.match(/^EnvironmentFile=.*$/gm)).toEqual([`EnvironmentFile=${runDir}/lobby.env`, `EnvironmentFile=${envFile}`]);
    expect(text).toMatch(/^Description=Lobby Janus gate 2$/m);
    expect(readFileSync(envFile, 'utf8').split('\n')).toEqual(expect.arrayContaining(['JANUS_GATE_PORT=9082', 'LOBBY_GATE=2']));
    expect(readFileSync(path.join(gates, 'lobby.target'), 'utf8')).toMatch(/^Wants=.* lobby-janus-gate\.service lobby-janus-gate-2\.service /m);
    const verify = spawnSync('systemd-analyze', ['verify', path.join(gates, 'lobby-janus-gate-2.service')], { encoding: 'utf8' });
    expect(verify.stderr.split('\n').filter((l) => /lobby-janus-gate/.test(l) && !/not found|No such file/.test(l))).toEqual([]);
    // one gate again: the second's unit is gone
    bash(`lobby_render_units "${gates}"`);
    expect(existsSync(path.join(gates, 'lobby-janus-gate-2.service'))).toBe(false);
  }, 30_000);

  it('when LOBBY_INSTANCES=2 on SQLite, then the units are refused with the reason', () => {
    const run = spawnSync('bash', ['-c', `. scripts/lib/stack.sh >/dev/null; . scripts/lib/units.sh; lobby_render_units "${dir}-sqlite"`], {
      cwd: root,
      env: { ...baseEnv, LOBBY_INSTANCES: '2' },
      encoding: 'utf8',
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('LOBBY_INSTANCES=2 needs PostgreSQL: set DATABASE_URL=postgres://');
  });
});

async function answer(url: string): Promise<{ status: number; body: string } | null> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    return { status: res.status, body: await res.text() };
  } catch {
    return null;
  }
}

/** The user a process runs as (its real and effective uid), from /proc. */
function uidOf(pid: number): string {
  return (
    /^Uid:\s+(\d+)\s+(\d+)/m
      .exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
      ?.slice(1, 3)
      .join(' ') ?? ''
  );
}

describe.runIf(process.getuid?.() === 0)('the server and the gate as the lobby user', () => {
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  }, 30_000);

  it('when started as lobby with only the data dir theirs, then both answer and the database is written there', async () => {
    // arrange: the user and its folders, exactly as scripts/configure makes them
    bash('lobby_ensure_user; mkdir -p "$LOBBY_LOG_DIR" "$JANUS_DIR/conf"; lobby_give_folders');
    // A deployment installs the code where its user can read it (docs/operations.md). A checkout in a
    // folder closed to other users (root's home, a `mktemp -d` folder) is shown to lobby the same way: bound
    // onto a folder it can reach, in a mount namespace of the started process alone.
    const reachable =
      spawnSync('setpriv', [
        '--reuid=lobby',
        '--regid=lobby',
        '--init-groups',
        'test',
        '-r',
        path.join(root, 'apps/server/src/main.ts'),
      ]).status === 0;
    const codeDir = reachable ? root : mkdtempSync('/var/tmp/lobby-units-code-');
    if (!reachable) {
      chmodSync(codeDir, 0o755);
      onTestFinished(() => rmdirSync(codeDir));
    }
    const node = process.execPath.startsWith(`${root}/`)
      ? path.join(codeDir, path.relative(root, process.execPath))
      : process.execPath;
    const lobbyUid = execFileSync('id', ['-u', 'lobby'], { encoding: 'utf8' }).trim();
    const ports = { api: await freePort(), gate: await freePort() };
    const env = Object.fromEntries(
      bash('env | grep -E "^(XMPP_|TURN_SECRET|API_TOKEN|SESSION_SECRET|JANUS_|EJABBERD_|LOBBY_DATA_DIR)"')
        .trim()
        .split('\n')
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    const start = (script: string) => {
      const asLobby = ['--reuid=lobby', '--regid=lobby', '--init-groups', '--no-new-privs', node, script];
      const child = spawn(
        reachable ? 'setpriv' : 'unshare',
        reachable
          ? asLobby
          : [
              '--mount',
              '--propagation',
              'private',
              '--',
              'sh',
              '-c',
              'mount --bind "$0" "$1" && cd "$1" && shift && exec setpriv "$@"',
              root,
              codeDir,
              ...asLobby,
            ],
        {
          cwd: reachable ? root : '/',
          env: {
            ...env,
            PATH: baseEnv.PATH,
            NODE_ENV: 'production',
            HOST: '127.0.0.1',
            PORT: String(ports.api),
            JANUS_GATE_PORT: String(ports.gate),
          },
          stdio: 'ignore',
        },
      );
      children.push(child);
      return child;
    };

    // act
    const server = start('apps/server/src/main.ts');
    const gate = start('apps/server/src/gate.ts');
    let health: { status: number; body: string } | null = null;
    let gateHealth: { status: number; body: string } | null = null;
    for (let i = 0; i < 600 && !(health && gateHealth); i++) {
      await new Promise((r) => setTimeout(r, 100));
      health ??= await answer(`http://127.0.0.1:${ports.api}/api/health`);
      gateHealth ??= await answer(`http://127.0.0.1:${ports.gate}/health`);
    }

    // assert: both run as lobby, the server's database is up (ejabberd and Janus are not running here)
    expect(uidOf(server.pid!)).toBe(`${lobbyUid} ${lobbyUid}`);
    expect(uidOf(gate.pid!)).toBe(`${lobbyUid} ${lobbyUid}`);
    expect(health?.body).toContain('"database":"up"');
    expect(gateHealth?.status).toBe(200);
    const database = path.join(dataDir, 'lobby.sqlite');
    expect(existsSync(database)).toBe(true);
    expect(String(statSync(database).uid)).toBe(lobbyUid);
    // nothing else of theirs: the checkout and the run dir are root's, not writable by lobby
    const writable = spawnSync('setpriv', [
      '--reuid=lobby',
      '--regid=lobby',
      '--init-groups',
      'test',
      '-w',
      root,
    ]);
    expect(writable.status).toBe(1);
  }, 90_000);
});

describe.runIf(!existsSync('/run/systemd/system'))(
  'configure --install-units where systemd is not running',
  () => {
    it('when asked to install the units, then it stops at once, says why, and copies nothing', () => {
      const before = existsSync('/etc/systemd/system/lobby-server.service');
      const run = spawnSync('./scripts/configure', ['--install-units'], {
        cwd: root,
        env: baseEnv,
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/systemd is not running on this machine/);
      expect(existsSync('/etc/systemd/system/lobby-server.service')).toBe(before);
      // at once: nothing was set up or rendered
      expect(existsSync(path.join(runDir, 'lobby.env'))).toBe(false);
    });
  },
);
