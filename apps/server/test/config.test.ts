import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

const secrets = {
  XMPP_JWT_SECRET: 'x'.repeat(32),
  API_TOKEN_SECRET: 'a'.repeat(32),
  SESSION_SECRET: 's'.repeat(32),
  JANUS_TOKEN_SECRET: 't'.repeat(32),
  JANUS_ROOM_ADMIN_KEY: 'k'.repeat(32),
  EJABBERD_EVENTS_SECRET: 'e'.repeat(32),
};

describe('config', () => {
  it('when nothing is set outside tests, then it refuses to start without secrets', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/XMPP_JWT_SECRET/);
  });

  it('when only the secrets are set, then the defaults of docs/architecture.md apply', () => {
    const c = loadConfig({ ...secrets, LOBBY_DATA_DIR: '/tmp/lobby-data' });
    expect(c.port).toBe(8080);
    expect(c.host).toBe('127.0.0.1');
    expect(c.databaseUrl).toBe('sqlite:/tmp/lobby-data/lobby.sqlite');
    expect(c.xmppDomain).toBe('lobby.local');
    expect(c.xmppGuestDomain).toBe('guest.lobby.local');
    expect(c.xmppMucDomain).toBe('conference.lobby.local');
    expect(c.defaultCompanyId).toBe(18);
    expect(c.guestDist).toMatch(/apps\/guest\/dist$/);
    expect(c.consoleDist).toMatch(/apps\/console\/dist$/);
  });

  it('when NODE_ENV is test, then it starts without secrets', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).apiTokenSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('when a postgres URL or a bad number is given, then it is used or refused', () => {
    expect(loadConfig({ ...secrets, DATABASE_URL: 'postgres://u@127.0.0.1:5433/lobby' }).databaseUrl).toMatch(/^postgres:/);
    expect(() => loadConfig({ ...secrets, PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ ...secrets, DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ ...secrets, LOBBY_SEED_DEMO: '1' })).toThrow(/DEMO_AGENT_PASSWORD/);
  });

  it('when LOBBY_JANUS_NODES is unset, then one node of the JANUS_* URLs; when set, each node, the standby off; when malformed, start is refused naming it', () => {
    const one = loadConfig({ ...secrets, JANUS_WS_URL: 'ws://127.0.0.1:9188', LOBBY_MEDIA_STANDBY: '1' });
    expect(one.janusNodes).toEqual([{ name: 'janus-1', wsUrl: 'ws://127.0.0.1:9188', httpUrl: 'http://127.0.0.1:8088/janus', adminUrl: 'http://127.0.0.1:7088/admin' }]);
    expect(one.mediaStandby).toBe(true);
    const two = loadConfig({
      ...secrets,
      LOBBY_MEDIA_STANDBY: '1',
      LOBBY_JANUS_NODES: 'a ws://h:1 http://h:2/janus http://h:3/admin;\n b  wss://k:1 https://k:2/janus https://k:3/admin ',
    });
    expect(two.janusNodes).toEqual([
      { name: 'a', wsUrl: 'ws://h:1', httpUrl: 'http://h:2/janus', adminUrl: 'http://h:3/admin' },
      { name: 'b', wsUrl: 'wss://k:1', httpUrl: 'https://k:2/janus', adminUrl: 'https://k:3/admin' },
    ]);
    expect(two.mediaStandby).toBe(false);
    expect(() => loadConfig({ ...secrets, LOBBY_JANUS_NODES: 'a http://h:1 http://h:2/janus http://h:3/admin' })).toThrow(
      'LOBBY_JANUS_NODES: "a http://h:1 http://h:2/janus http://h:3/admin" is not "name ws://… http://…/janus http://…/admin"',
    );
    expect(() => loadConfig({ ...secrets, LOBBY_JANUS_NODES: 'a ws://h:1 http://h:2/janus' })).toThrow(/LOBBY_JANUS_NODES: "a ws/);
    expect(() => loadConfig({ ...secrets, LOBBY_JANUS_NODES: 'a ws://h:1 http://h:2/j http://h:3/a; a ws://k:1 http://k:2/j http://k:3/a' })).toThrow(
      'LOBBY_JANUS_NODES: two nodes of one name',
    );
  });

  it('when LOBBY_ALLOW_AUTOMATION is unset, then automated browsers are refused; when 1 or true, allowed', () => {
    expect(loadConfig({ ...secrets }).allowAutomation).toBe(false);
    expect(loadConfig({ ...secrets, LOBBY_ALLOW_AUTOMATION: '' }).allowAutomation).toBe(false);
    expect(loadConfig({ ...secrets, LOBBY_ALLOW_AUTOMATION: '0' }).allowAutomation).toBe(false);
    expect(loadConfig({ ...secrets, LOBBY_ALLOW_AUTOMATION: '1' }).allowAutomation).toBe(true);
    expect(loadConfig({ ...secrets, LOBBY_ALLOW_AUTOMATION: 'true' }).allowAutomation).toBe(true);
  });

  it('when LOBBY_SENTRY_DSN is unset, then nothing is reported; when a DSN, it is kept; when not a DSN, start is refused naming it', () => {
    expect(loadConfig({ ...secrets }).sentryDsn).toBeNull();
    expect(loadConfig({ ...secrets, LOBBY_SENTRY_DSN: ' ' }).sentryDsn).toBeNull();
    expect(loadConfig({ ...secrets, LOBBY_SENTRY_DSN: 'https://abc123@errors.example.com/7' }).sentryDsn).toBe('https://abc123@errors.example.com/7');
    expect(loadConfig({ ...secrets, LOBBY_SENTRY_DSN: 'http://k@127.0.0.1:9000/sentry/1' }).sentryDsn).toBe('http://k@127.0.0.1:9000/sentry/1');
    for (const bad of ['errors.example.com', 'https://errors.example.com/7', 'https://k@errors.example.com/', 'ftp://k@host/1']) {
      expect(() => loadConfig({ ...secrets, LOBBY_SENTRY_DSN: bad })).toThrow(/LOBBY_SENTRY_DSN/);
    }
  });
});
