import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The server's settings, read from the environment (names and defaults: docs/architecture.md). */
export interface Config {
  nodeEnv: string;
  port: number;
  host: string;
  /** `sqlite:<file>` or `postgres://…` */
  databaseUrl: string;
  xmppDomain: string;
  xmppGuestDomain: string;
  xmppMucDomain: string;
  xmppJwtSecret: string;
  apiTokenSecret: string;
  sessionSecret: string;
  ejabberdApiUrl: string;
  /** the bearer ejabberd's mod_lobby_events posts its guest events with (POST /api/ejabberd-events) */
  ejabberdEventsSecret: string;
  ejabberdWsUrl: string;
  janusWsUrl: string;
  janusHttpUrl: string;
  janusAdminUrl: string;
  janusAdminSecret: string;
  /**
   * The Janus nodes the server places call rooms on (services/media/janusNodes.ts, docs/operations.md
   * "Scaling"): `LOBBY_JANUS_NODES="name ws-url http-url admin-url; …"`. Unset: one node, `janus-1`, of
   * JANUS_WS_URL, JANUS_HTTP_URL and JANUS_ADMIN_URL. Every node shares the admin secret, the token secret
   * and the room admin key.
   */
  janusNodes: JanusNodeEndpoints[];
  /** Janus `token_auth_secret`: the server signs each participant's Janus token with it */
  janusTokenSecret: string;
  /** Janus videoroom `admin_key`: only its holder (the server) creates rooms */
  janusRoomAdminKey: string;
  dataDir: string;
  defaultCompanyId: number;
  seedDemo: boolean;
  demoAgentPassword: string;
  demoAdminPassword: string;
  guestDist: string;
  /**
   * The guest app's server build (`LOBBY_GUEST_SSR`, default apps/guest/dist-ssr/entry-server.js): it renders
   * the guest's first screen into the page at `/` (web/firstScreen.ts). Missing: the page is served without it.
   */
  guestServerEntry: string;
  consoleDist: string;
  /**
   * The reverse proxy whose X-Forwarded-For/-Proto headers are believed (client address for rate limits,
   * https for Secure cookies and HSTS): `TRUST_PROXY=127.0.0.1,::1` (addresses, CIDRs or proxy-addr's
   * loopback / linklocal / uniquelocal); `1` or `true` mean loopback (nginx on the same host). Unset: none,
   * so that no client can claim https or another address by sending the headers itself.
   */
  trustProxy: false | string[];
  /** New browsers per minute and client IP on POST /api/guest/register and /api/guest-auth (services/guestRateLimit.ts). */
  registerRateLimit: number;
  /** Requests per minute of one already registered browser on those routes (services/guestRateLimit.ts). */
  registerBrowserRateLimit: number;
  /** Requests per minute and client IP on POST /api/upload/{type}. */
  uploadRateLimit: number;
  /** Requests per minute and client IP on POST /api/console/login. */
  loginRateLimit: number;
  /** How long a call stays listed in GET /api/console/rooms without an end timestamp. */
  openCallHours: number;
  /** how long a company's snapshot (row, assignments and agents, quotas, blocked guests; hosts) may serve opening calls and registrations (services/companySnapshots.ts) */
  companyCacheMs: number;
  /**
   * Whether automated browsers (`navigator.webdriver`) may call: `LOBBY_ALLOW_AUTOMATION=1`. Off by
   * default (the guest app shows them its bot screen); the test stack turns it on for its journeys.
   */
  allowAutomation: boolean;
  /**
   * Whether consoles keep their next answer's Janus session ready while calls wait (the agent's standby
   * session, docs/protocol.md): `LOBBY_MEDIA_STANDBY=1`. Off by default: measured on 2026-11-27 it saved
   * the agent nothing reliable on loopback and the guest's first frame came later in most paired runs
   * (docs/performance.md). The test stack turns it on, so that the standby path and its gate rules are
   * exercised; without it POST /api/console/media/standby answers `{standby: 'off'}`.
   */
  mediaStandby: boolean;
  /**
   * Where the browser apps report their errors and session replays (a Sentry DSN, sentry.io or any
   * Sentry-compatible server: `LOBBY_SENTRY_DSN=https://<key>@<host>/<project>`). Null: off, and nothing
   * leaves the browser. It is public by design (every browser reads it), so it reaches the guest app in
   * `GET /api/company/details` and the pages' CSP lets the browser send to its origin.
   */
  sentryDsn: string | null;
  logLevel: string;
  /** this server's name among the instances behind nginx, sent as `x-lobby-instance` (docs/operations.md "Scaling") */
  instance: string;
  /** how long a SIGTERM waits for the requests in flight before the process exits anyway (http/drain.ts) */
  drainSeconds: number;
}

/** One Janus process: its name and its loopback endpoints. */
export interface JanusNodeEndpoints {
  name: string;
  wsUrl: string;
  httpUrl: string;
  adminUrl: string;
}

const NODE_NAME = /^[A-Za-z0-9._-]{1,32}$/;

/** LOBBY_JANUS_NODES: `name ws-url http-url admin-url` entries separated by `;` or new lines. */
function janusNodes(env: NodeJS.ProcessEnv, single: JanusNodeEndpoints): JanusNodeEndpoints[] {
  const raw = (env.LOBBY_JANUS_NODES ?? '').trim();
  if (raw === '') return [single];
  const nodes = raw
    .split(/[;\n]/)
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [name = '', wsUrl = '', httpUrl = '', adminUrl = '', ...extra] = entry.split(/\s+/);
      if (!NODE_NAME.test(name) || !/^wss?:\/\//.test(wsUrl) || !/^https?:\/\//.test(httpUrl) || !/^https?:\/\//.test(adminUrl) || extra.length) {
        throw new ConfigError(`LOBBY_JANUS_NODES: "${entry}" is not "name ws://… http://…/janus http://…/admin"`);
      }
      return { name, wsUrl, httpUrl, adminUrl };
    });
  const names = new Set(nodes.map((n) => n.name));
  if (names.size !== nodes.length) throw new ConfigError('LOBBY_JANUS_NODES: two nodes of one name');
  return nodes;
}

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export class ConfigError extends Error {}

function int(env: NodeJS.ProcessEnv, name: string, dflt: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new ConfigError(`${name} must be an integer, got "${raw}"`);
  return n;
}

const PROXY_ENTRY = /^(loopback|linklocal|uniquelocal|[0-9a-fA-F.:]+(\/\d{1,3})?)$/;

function trustedProxies(env: NodeJS.ProcessEnv): false | string[] {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return ['loopback'];
  const entries = raw.split(',').map((e) => e.trim()).filter(Boolean);
  const bad = entries.find((e) => !PROXY_ENTRY.test(e));
  if (bad !== undefined) throw new ConfigError(`TRUST_PROXY: "${bad}" is not an address, a CIDR or loopback/linklocal/uniquelocal`);
  return entries;
}

/** A Sentry DSN: `<scheme>://<public key>@<host>[:port][/path]/<project id>`. */
function sentryDsn(env: NodeJS.ProcessEnv): string | null {
  const raw = (env.LOBBY_SENTRY_DSN ?? '').trim();
  if (raw === '') return null;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  if (!url || !/^https?:$/.test(url.protocol) || !url.username || !/\/\d+$/.test(url.pathname)) {
    throw new ConfigError(`LOBBY_SENTRY_DSN must look like https://<key>@<host>/<project id>, got "${raw}"`);
  }
  return raw;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? '').toLowerCase();
  return raw === '1' || raw === 'true' || raw === 'yes';
}

const TEST_SECRET = 'test-secret-not-for-production-0123456789';

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnv = env.NODE_ENV ?? 'development';
  const isTest = nodeEnv === 'test';
  const s = (name: string, dflt: string) => (env[name] === undefined || env[name] === '' ? dflt : env[name]);

  const secret = (name: string): string => {
    const v = env[name];
    if (v && v.length > 0) {
      if (v.length < 32 && !isTest) throw new ConfigError(`${name} must be at least 32 characters`);
      return v;
    }
    if (isTest) return `${TEST_SECRET}-${name}`;
    throw new ConfigError(`${name} is not set (see .run/secrets.env; only NODE_ENV=test runs without secrets)`);
  };

  const dataDir = path.resolve(s('LOBBY_DATA_DIR', path.join(repoRoot, 'data')));
  const nodes = janusNodes(env, {
    name: 'janus-1',
    wsUrl: s('JANUS_WS_URL', 'ws://127.0.0.1:8188'),
    httpUrl: s('JANUS_HTTP_URL', 'http://127.0.0.1:8088/janus'),
    adminUrl: s('JANUS_ADMIN_URL', 'http://127.0.0.1:7088/admin'),
  });
  const config: Config = {
    nodeEnv,
    port: int(env, 'PORT', 8080),
    host: s('HOST', '127.0.0.1'),
    databaseUrl: s('DATABASE_URL', `sqlite:${path.join(dataDir, 'lobby.sqlite')}`),
    xmppDomain: s('XMPP_DOMAIN', 'lobby.local'),
    xmppGuestDomain: s('XMPP_GUEST_DOMAIN', 'guest.lobby.local'),
    xmppMucDomain: s('XMPP_MUC_DOMAIN', 'conference.lobby.local'),
    xmppJwtSecret: secret('XMPP_JWT_SECRET'),
    apiTokenSecret: secret('API_TOKEN_SECRET'),
    sessionSecret: secret('SESSION_SECRET'),
    ejabberdApiUrl: s('EJABBERD_API_URL', 'http://127.0.0.1:5281/api'),
    ejabberdEventsSecret: secret('EJABBERD_EVENTS_SECRET'),
    ejabberdWsUrl: s('EJABBERD_WS_URL', 'ws://127.0.0.1:5280/ws'),
    janusWsUrl: s('JANUS_WS_URL', 'ws://127.0.0.1:8188'),
    janusHttpUrl: s('JANUS_HTTP_URL', 'http://127.0.0.1:8088/janus'),
    janusAdminUrl: s('JANUS_ADMIN_URL', 'http://127.0.0.1:7088/admin'),
    janusAdminSecret: s('JANUS_ADMIN_SECRET', ''),
    janusNodes: nodes,
    janusTokenSecret: secret('JANUS_TOKEN_SECRET'),
    janusRoomAdminKey: secret('JANUS_ROOM_ADMIN_KEY'),
    dataDir,
    defaultCompanyId: int(env, 'LOBBY_DEFAULT_COMPANY_ID', 18),
    seedDemo: flag(env, 'LOBBY_SEED_DEMO'),
    demoAgentPassword: s('DEMO_AGENT_PASSWORD', ''),
    demoAdminPassword: s('DEMO_ADMIN_PASSWORD', ''),
    guestDist: path.resolve(repoRoot, s('LOBBY_GUEST_DIST', 'apps/guest/dist')),
    guestServerEntry: path.resolve(repoRoot, s('LOBBY_GUEST_SSR', 'apps/guest/dist-ssr/entry-server.js')),
    consoleDist: path.resolve(repoRoot, s('LOBBY_CONSOLE_DIST', 'apps/console/dist')),
    trustProxy: trustedProxies(env),
    // Per client address and minute. Many visitors share one address behind a company's or a mobile
    // carrier's NAT, so this only stops floods (30 turned away real guests).
    registerRateLimit: int(env, 'LOBBY_REGISTER_RATE_LIMIT', 600),
    registerBrowserRateLimit: int(env, 'LOBBY_REGISTER_BROWSER_RATE_LIMIT', 30),
    loginRateLimit: int(env, 'LOBBY_LOGIN_RATE_LIMIT', 10),
    uploadRateLimit: int(env, 'LOBBY_UPLOAD_RATE_LIMIT', 30),
    openCallHours: int(env, 'LOBBY_OPEN_CALL_HOURS', 4),
    companyCacheMs: int(env, 'LOBBY_COMPANY_CACHE_MS', 1000),
    allowAutomation: flag(env, 'LOBBY_ALLOW_AUTOMATION'),
    // a warm session lives on one Janus node, a call's room on whichever node it was placed: with several
    // nodes the standby is off (docs/protocol.md "The agent's standby session")
    mediaStandby: flag(env, 'LOBBY_MEDIA_STANDBY') && nodes.length === 1,
    sentryDsn: sentryDsn(env),
    logLevel: s('LOG_LEVEL', isTest ? 'silent' : 'info'),
    instance: s('LOBBY_INSTANCE', '1'),
    drainSeconds: int(env, 'LOBBY_DRAIN_SECONDS', 20),
  };
  if (config.seedDemo && !isTest && (!config.demoAgentPassword || !config.demoAdminPassword)) {
    throw new ConfigError('LOBBY_SEED_DEMO=1 needs DEMO_AGENT_PASSWORD and DEMO_ADMIN_PASSWORD');
  }
  if (!/^[A-Za-z0-9._-]{1,32}$/.test(config.instance)) {
    throw new ConfigError(`LOBBY_INSTANCE must be 1 to 32 letters, digits, '.', '_' or '-', got "${config.instance}"`);
  }
  if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(config.databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with sqlite: or postgres://');
  }
  return config;
}

/** The config, or exit 2 with the reason on stderr (a process's start: the server, the Janus gate). */
export function loadConfigOrExit(program: string, env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`${program}: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
}
