/**
 * Every bench runs from its documented command on a fresh machine (bench/README.md): the README's
 * table names each bench of bench/ with a `./scripts/bench` command, and that script runs the bench
 * through `node` after installing what the browser benches need (Debian's chromium, which
 * `./scripts/start` alone does not install).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

const readme = fs.readFileSync('bench/README.md', 'utf8');
const benches = fs.readdirSync('bench').filter((f) => f.endsWith('.ts'));

describe('bench commands', () => {
  it('when a bench is in bench/, then the README gives its ./scripts/bench command (no bare node command a fresh machine cannot run)', () => {
    for (const file of [...benches, 'api/run.ts']) expect(readme, file).toContain(`./scripts/bench ${file}`);
    const rows = readme.split('\n').filter((l) => l.startsWith('| `') && !l.startsWith('| bench'));
    for (const row of rows) expect(row, row.slice(0, 40)).not.toMatch(/`node bench\//);
  });

  it("when scripts/bench runs, then it prepares chromium with the stack's packages and runs the named bench; an unknown one is refused by name", () => {
    expect(fs.readFileSync('scripts/bench', 'utf8')).toMatch(/^lobby_prepare chromium$/m);
    expect(execFileSync('./scripts/bench', ['--list'], { encoding: 'utf8' }).split('\n')).toEqual(
      expect.arrayContaining([...benches, 'api/run.ts']),
    );
    let refused = '';
    try {
      execFileSync('./scripts/bench', ['nothing-here.ts'], { encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      refused = String((error as { stderr?: string }).stderr);
    }
    expect(refused).toContain('no bench/nothing-here.ts');
  });

  it('when the API bench runs for a second, then its server starts with the configuration the server requires and both routes answer', () => {
    // the bench builds its own server configuration: a secret the server starts to require breaks it here
    const out = execFileSync(process.execPath, ['bench/api/run.ts', '1', '5', '--add-only'], {
      encoding: 'utf8',
      stdio: 'pipe',
      timeout: 90_000,
    });
    expect(out).toMatch(/^bare +\d+ req\/s .* non-2xx 0 +errors 0$/m);
    expect(out).toMatch(/^lobby +\d+ req\/s .* non-2xx 0 +errors 0$/m);
  }, 120_000);
});
