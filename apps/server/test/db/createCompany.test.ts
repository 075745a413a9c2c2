import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany } from '../../src/db/createCompany.ts';
import { createTestContext, dialects } from '../helpers/context.ts';
import type { TestContext } from '../helpers/context.ts';
import { login } from '../helpers/fixtures.ts';

const run = promisify(execFile);
const ACME = {
  name: 'Acme',
  host: 'Support.Acme.example',
  adminEmail: 'Ops@Acme.example',
  adminName: 'Ops',
  adminPassword: 'a-long-enough-password',
};

describe.each(dialects())('a deployment creates its first company (%s)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(dialect, { seed: false });
  });
  afterAll(async () => t.close());

  it('when the operator creates a company, then guests on its host get it and its administrator signs in to a General queue', async () => {
    const result = await createCompany(t.db, ACME);

    expect(result).toMatchObject({ companyId: expect.any(Number) as number });
    const details = await t.app.inject({
      method: 'GET',
      url: '/api/company/details',
      headers: { host: 'support.acme.example' },
    });
    expect(details.statusCode).toBe(200);
    expect(details.json<{ data: Record<string, unknown> }>().data).toMatchObject({
      name: 'Acme',
      activated: true,
      host: 'support.acme.example',
    });
    const cookie = await login(t.app, 'ops@acme.example', ACME.adminPassword);
    const assignments = await t.app.inject({
      method: 'GET',
      url: '/api/admin/assignments',
      headers: { cookie },
    });
    expect(
      assignments.json<{ data: { assignments: { name: string; agentIds: number[] }[] } }>().data.assignments,
    ).toEqual([expect.objectContaining({ name: 'General', agentIds: [expect.any(Number) as number] })]);
  });

  it('when the host or the email is taken or malformed, then nothing is created and the field is named', async () => {
    const before = await t.db.kysely.selectFrom('companies').select('id').execute();

    expect(await createCompany(t.db, { ...ACME, adminEmail: 'other@acme.example' })).toEqual({
      field: 'host',
      error: 'host: a company already answers on support.acme.example',
    });
    expect(await createCompany(t.db, { ...ACME, host: 'other.acme.example' })).toMatchObject({
      field: 'adminEmail',
    });
    expect(await createCompany(t.db, { ...ACME, host: 'https://x.example/' })).toMatchObject({
      field: 'host',
    });
    expect(await createCompany(t.db, { ...ACME, host: 'x.example', adminEmail: 'nobody' })).toMatchObject({
      field: 'adminEmail',
    });
    expect(
      await createCompany(t.db, {
        ...ACME,
        host: 'x.example',
        adminEmail: 'x@x.example',
        adminPassword: 'short',
      }),
    ).toMatchObject({ field: 'adminPassword' });
    expect(await t.db.kysely.selectFrom('companies').select('id').execute()).toHaveLength(before.length);
  });
});

describe('lobby-admin create-company (the operator command)', () => {
  const cli = path.resolve(import.meta.dirname, '../../src/cli/lobby-admin.ts');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lobby-cli-'));
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: `sqlite:${path.join(dir, 'lobby.sqlite')}`,
    XMPP_JWT_SECRET: 'x'.repeat(40),
    API_TOKEN_SECRET: 'y'.repeat(40),
    SESSION_SECRET: 'z'.repeat(40),
    JANUS_TOKEN_SECRET: 't'.repeat(40),
    JANUS_ROOM_ADMIN_KEY: 'k'.repeat(40),
    EJABBERD_EVENTS_SECRET: 'e'.repeat(40),
    LOBBY_ADMIN_PASSWORD: '',
  };
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('when run with a name, host and email, then it migrates, creates the company and prints a generated password once', async () => {
    const { LOBBY_ADMIN_PASSWORD: _unused, ...withoutPassword } = env;
    const { stdout } = await run(
      process.execPath,
      [
        cli,
        'create-company',
        '--name',
        'Acme',
        '--host',
        'acme.example',
        '--admin-email',
        'ops@acme.example',
      ],
      { env: withoutPassword },
    );

    expect(stdout).toMatch(/^company \d+ created for https:\/\/acme\.example\//);
    expect(stdout).toMatch(/administrator ops@acme\.example with password [A-Za-z0-9_-]{20} \(shown once/);
  });

  it('when an argument is missing or wrong, then it exits 2 naming it', async () => {
    const missing = await run(process.execPath, [cli, 'create-company', '--name', 'Acme'], { env }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    const badHost = await run(
      process.execPath,
      [cli, 'create-company', '--name', 'B', '--host', 'not a host', '--admin-email', 'b@b.example'],
      {
        env: { ...env, LOBBY_ADMIN_PASSWORD: 'another-long-password' },
      },
    ).catch((e: { code: number; stderr: string }) => e);

    expect(missing).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('missing --host, --admin-email') as string,
    });
    expect(badHost).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('host: "not a host" is not a host name') as string,
    });
  });
});
