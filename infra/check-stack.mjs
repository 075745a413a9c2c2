#!/usr/bin/env node
// Proves that the real servers of a running stack work the way Lobby uses them. Prints OK/FAIL per
// item and exits non-zero on any failure. Reads the same environment as the servers
// (scripts/lib/env.sh), e.g.: `bash -c '. scripts/lib/env.sh && node infra/check-stack.mjs'`.
// scripts/test runs it right after starting the tests' stack. Needs Node 22+ (global WebSocket).
//
//  a. a JWT signed with XMPP_JWT_SECRET logs in a guest over the websocket; a wrong signature fails
//  b. the loopback HTTP API creates a members-only room and sets affiliations; a member joins it and a
//     guest that is not a member cannot; a command outside the allowed list is refused; an agent can be
//     in more than 100 rooms (one per waiting guest); ejabberd may open more than 1,024 descriptors
//  c. XEP-0215 gives a TURN server on 127.0.0.1:$TURN_PORT with credentials
//  d. Janus answers info on its websocket (janus-protocol); it opens a session only with a token signed
//     with JANUS_TOKEN_SECRET and creates a videoroom (string id) only with JANUS_ROOM_ADMIN_KEY;
//     its admin API takes JANUS_ADMIN_SECRET
//  e. coturn answers a STUN binding request
import crypto from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';
import * as XMPP from 'stanza';
import { stunAttrs, stunMessage } from './stun.mjs';

const env = (name, fallback) => process.env[name] ?? fallback;
const WS_URL = env('EJABBERD_WS_URL', 'ws://127.0.0.1:5280/ws');
const API_URL = env('EJABBERD_API_URL', 'http://127.0.0.1:5281/api');
const JANUS_WS_URL = env('JANUS_WS_URL', 'ws://127.0.0.1:8188');
const JANUS_ADMIN_URL = env('JANUS_ADMIN_URL', 'http://127.0.0.1:7088/admin');
const GUEST_DOMAIN = env('XMPP_GUEST_DOMAIN', 'guest.lobby.local');
const AGENT_DOMAIN = env('XMPP_DOMAIN', 'lobby.local');
const MUC = env('XMPP_MUC_DOMAIN', 'conference.lobby.local');
const TURN_PORT = Number(env('TURN_PORT', '3478'));
const JWT_SECRET = process.env.XMPP_JWT_SECRET;
const JANUS_ADMIN_SECRET = process.env.JANUS_ADMIN_SECRET;
const JANUS_TOKEN_SECRET = process.env.JANUS_TOKEN_SECRET;
const JANUS_ROOM_ADMIN_KEY = process.env.JANUS_ROOM_ADMIN_KEY;
if (!JWT_SECRET || !JANUS_ADMIN_SECRET || !JANUS_TOKEN_SECRET || !JANUS_ROOM_ADMIN_KEY) {
  console.error(
    'check-stack: XMPP_JWT_SECRET, JANUS_ADMIN_SECRET, JANUS_TOKEN_SECRET and JANUS_ROOM_ADMIN_KEY must be set (source scripts/lib/env.sh)',
  );
  process.exit(2);
}

let failures = 0;
async function check(name, fn) {
  const t0 = performance.now();
  try {
    const detail = await fn();
    console.log(`OK   ${name}${detail ? ` - ${detail}` : ''} (${Math.round(performance.now() - t0)} ms)`);
  } catch (err) {
    failures++;
    console.log(`FAIL ${name} - ${err instanceof Error ? err.message : String(err)}`);
  }
}
const assert = (cond, msg) => {
  if (!cond) throw new Error(msg);
};
const withTimeout = (p, ms, what) =>
  Promise.race([p, new Promise((_, reject) => setTimeout(() => reject(new Error(`timeout: ${what}`)), ms))]);

// What the Lobby server does: a short-lived HS256 JWT {jid, exp}, used as the SASL PLAIN password.
function mintJwt(jid, secret = JWT_SECRET, ttl = 300) {
  const enc = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const head = enc({ alg: 'HS256', typ: 'JWT' });
  const body = enc({ jid, iat: now, exp: now + ttl });
  const sig = crypto.createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${sig}`;
}

// JWT-as-password works only through PLAIN: StanzaJS would otherwise prefer what ejabberd may offer.
const NOT_PLAIN = [
  'SCRAM-SHA-256-PLUS',
  'SCRAM-SHA-256',
  'SCRAM-SHA-1-PLUS',
  'SCRAM-SHA-1',
  'DIGEST-MD5',
  'X-OAUTH2',
  'OAUTHBEARER',
];
const clients = [];
function makeClient(jid, password) {
  const client = XMPP.createClient({
    jid,
    password,
    resource: 'check',
    transports: { websocket: WS_URL, bosh: false },
    autoReconnect: false,
    useStreamManagement: false,
  });
  for (const m of NOT_PLAIN) client.sasl.disable(m);
  clients.push(client);
  return client;
}
function connect(client) {
  return withTimeout(
    new Promise((resolve, reject) => {
      client.on('session:started', () => resolve(client));
      client.on('auth:failed', () => reject(new Error(`auth failed for ${client.config.jid}`)));
      client.on('disconnected', () =>
        reject(new Error(`disconnected before the session started (${client.config.jid})`)),
      );
      client.connect();
    }),
    10000,
    `connect ${client.config.jid}`,
  );
}

async function api(command, args) {
  const res = await fetch(`${API_URL}/${command}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(args),
    signal: AbortSignal.timeout(10000),
  });
  return { status: res.status, body: await res.text() };
}

const run = crypto.randomBytes(4).toString('hex');
const guest1 = `g1@${GUEST_DOMAIN}`;

await check('a. XMPP: guest JWT logs in over the websocket (SASL PLAIN)', async () => {
  const client = makeClient(guest1, mintJwt(guest1));
  await connect(client);
  return `${client.jid}`;
});

await check('a. XMPP: a JWT with a wrong signature is refused', async () => {
  const jid = `g1@${GUEST_DOMAIN}`;
  const client = makeClient(jid, mintJwt(jid, `${JWT_SECRET}-wrong`));
  const outcome = await withTimeout(
    new Promise((resolve) => {
      client.on('session:started', () => resolve('started'));
      client.on('auth:failed', () => resolve('auth:failed'));
      client.on('disconnected', () => resolve('disconnected'));
      client.connect();
    }),
    10000,
    'wrong-signature login',
  );
  assert(outcome !== 'started', 'the session started with a wrongly signed token');
  client.disconnect();
  return `refused (${outcome})`;
});

const room = `check-${run}`;
const roomJid = `${room}@${MUC}`;
await check('b. HTTP API: create a members-only room and set affiliations', async () => {
  const created = await api('create_room_with_opts', {
    name: room,
    service: MUC,
    host: AGENT_DOMAIN,
    options: [
      { name: 'members_only', value: 'true' },
      { name: 'persistent', value: 'true' },
      { name: 'public', value: 'false' },
    ],
  });
  assert(
    created.status === 200 && created.body.trim() === '0',
    `create_room_with_opts: ${created.status} ${created.body}`,
  );
  for (const [jid, affiliation] of [
    [guest1, 'member'],
    [`agent1@${AGENT_DOMAIN}`, 'admin'],
  ]) {
    const r = await api('set_room_affiliation', { name: room, service: MUC, jid, affiliation });
    assert(r.status === 200, `set_room_affiliation ${jid}: ${r.status} ${r.body}`);
  }
  const affs = await api('get_room_affiliations', { name: room, service: MUC });
  assert(
    affs.body.includes('"member"') && affs.body.includes('"admin"'),
    `get_room_affiliations: ${affs.body}`,
  );
  const opts = await api('get_room_options', { name: room, service: MUC });
  // ejabberd 23.01 answers an object; later versions a list of {name, value}.
  const parsed = JSON.parse(opts.body);
  const membersOnly = Array.isArray(parsed)
    ? parsed.find((o) => o.name === 'members_only')?.value
    : parsed.members_only;
  assert(membersOnly === 'true', `members_only not on: ${opts.body}`);
  return roomJid;
});

await check('b. XMPP: the member guest joins the room', async () => {
  const client = clients[0];
  const pres = await withTimeout(client.joinRoom(roomJid, 'g1'), 10000, 'member join');
  assert(pres.type !== 'error', `join failed: ${JSON.stringify(pres.error)}`);
  return 'joined';
});

await check('b. XMPP: a guest that is not a member cannot join', async () => {
  const jid = `g2@${GUEST_DOMAIN}`;
  const client = makeClient(jid, mintJwt(jid));
  await connect(client);
  const result = await withTimeout(
    client.joinRoom(roomJid, 'g2').then(
      (p) => (p.type === 'error' ? `error ${p.error?.condition}` : 'joined'),
      (e) => `error ${e?.error?.condition ?? e?.message ?? e}`,
    ),
    10000,
    'non-member join',
  );
  assert(result !== 'joined', 'a non-member joined a members-only room');
  return `refused (${result})`;
});

await check('b. XMPP: a guest cannot create a room by joining it', async () => {
  const client = clients[0];
  const result = await withTimeout(
    client.joinRoom(`nope-${run}@${MUC}`, 'g1').then(
      (p) => (p.type === 'error' ? `error ${p.error?.condition}` : 'joined'),
      (e) => `error ${e?.error?.condition ?? e?.message ?? e}`,
    ),
    10000,
    'room creation by a client',
  );
  assert(result !== 'joined', 'a guest created a room');
  return `refused (${result})`;
});

await check('b. HTTP API: a command outside the allowed list is refused', async () => {
  const r = await api('registered_users', { host: AGENT_DOMAIN });
  assert(r.status !== 200, `registered_users answered ${r.status} ${r.body}`);
  return `HTTP ${r.status}`;
});

// Each waiting guest has a room of its own that the agents of its assignment join: an agent in more
// rooms than mod_muc's max_user_conferences (100 by default) silently never saw the later guests.
const MANY_ROOMS = 120;
await check(
  `b. XMPP: an agent joins ${MANY_ROOMS} guest rooms (more than ejabberd's default 100)`,
  async () => {
    const agent = `agent-many-${run}@${AGENT_DOMAIN}`;
    const names = Array.from({ length: MANY_ROOMS }, (_, i) => `check-${run}-many-${i}`);
    try {
      for (const name of names) {
        const created = await api('create_room_with_opts', {
          name,
          service: MUC,
          host: AGENT_DOMAIN,
          options: [{ name: 'members_only', value: 'true' }],
        });
        assert(created.status === 200, `create_room_with_opts ${name}: ${created.status} ${created.body}`);
        const r = await api('set_room_affiliation', { name, service: MUC, jid: agent, affiliation: 'admin' });
        assert(r.status === 200, `set_room_affiliation ${name}: ${r.status} ${r.body}`);
      }
      const client = makeClient(agent, mintJwt(agent));
      client.setMaxListeners(MANY_ROOMS * 2); // StanzaJS adds listeners per pending join
      await connect(client);
      const results = await Promise.all(
        names.map((name) =>
          withTimeout(
            client.joinRoom(`${name}@${MUC}`, 'agent').then(
              (p) => (p.type === 'error' ? `error ${p.error?.condition}` : 'joined'),
              (e) => `error ${e?.error?.condition ?? e?.message ?? e}`,
            ),
            20000,
            `join ${name}`,
          ),
        ),
      );
      const refused = results.filter((r) => r !== 'joined');
      assert(refused.length === 0, `${refused.length} of ${MANY_ROOMS} joins refused (${refused[0]})`);
      return `joined ${results.length}`;
    } finally {
      for (const name of names) await api('destroy_room', { name, service: MUC }).catch(() => undefined);
    }
  },
);

// One websocket is one descriptor: ejabberd must not run with the soft limit of 1,024 that `su` gives.
await check('b. ejabberd may open more than 1,024 files', async () => {
  const pidFile = process.env.EJABBERD_PID_FILE;
  assert(pidFile, 'EJABBERD_PID_FILE is not set (scripts/test sets it)');
  const { readFile } = await import('node:fs/promises');
  const pid = (await readFile(pidFile, 'utf8')).trim();
  const limits = await readFile(`/proc/${pid}/limits`, 'utf8');
  const line = limits.split('\n').find((l) => l.startsWith('Max open files'));
  const soft = Number(line?.split(/\s{2,}/)[1]);
  assert(soft > 1024, `soft limit ${line}`);
  return `soft limit ${soft}`;
});

let turnCredentials;
await check('c. XEP-0215: TURN on 127.0.0.1 with credentials', async () => {
  const client = clients[0];
  await client.discoverICEServers();
  const servers = client.jingle.iceServers ?? [];
  const turn = servers.filter((s) =>
    [s.urls].flat().some((u) => String(u).startsWith(`turn:127.0.0.1:${TURN_PORT}`)),
  );
  assert(turn.length > 0, `no turn:127.0.0.1:${TURN_PORT} in ${JSON.stringify(servers)}`);
  assert(
    turn.every((s) => s.username && s.credential),
    `TURN without credentials: ${JSON.stringify(turn)}`,
  );
  turnCredentials = { username: turn[0].username, credential: turn[0].credential };
  return turn.map((s) => [s.urls].flat().join(',')).join(' ');
});

await api('destroy_room', { name: room, service: MUC }).catch(() => undefined);
for (const c of clients) c.disconnect();

// Janus over its websocket, one request at a time, answers matched by transaction.
function janusSocket() {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(JANUS_WS_URL, 'janus-protocol');
    const pending = new Map();
    ws.onmessage = (ev) => {
      const msg = JSON.parse(String(ev.data));
      // Plugin requests answer "ack" first, then the result as a "success"/"event".
      if (msg.janus === 'ack') return;
      const done = pending.get(msg.transaction);
      if (done) {
        pending.delete(msg.transaction);
        done(msg);
      }
    };
    ws.onerror = () => reject(new Error(`cannot open ${JANUS_WS_URL}`));
    ws.onopen = () =>
      resolve({
        ws,
        send(body) {
          const transaction = crypto.randomBytes(6).toString('hex');
          return withTimeout(
            new Promise((res) => {
              pending.set(transaction, res);
              ws.send(JSON.stringify({ ...body, transaction }));
            }),
            5000,
            `janus ${body.janus}`,
          );
        },
      });
  });
}

await check('d. Janus: info on the websocket (janus-protocol)', async () => {
  const j = await janusSocket();
  try {
    assert(j.ws.protocol === 'janus-protocol', `subprotocol ${j.ws.protocol}`);
    const info = await j.send({ janus: 'info' });
    assert(info.janus === 'server_info', JSON.stringify(info));
    assert(info.plugins?.['janus.plugin.videoroom'], 'videoroom plugin missing');
    return `${info.name} ${info.version_string}, plugins: ${Object.keys(info.plugins).join(',')}`;
  } finally {
    j.ws.close();
  }
});

// A Janus signed token (token_auth_secret), as the Lobby server mints them (services/media/janusTokens.ts).
function janusToken(secret = JANUS_TOKEN_SECRET) {
  const data = `${Math.floor(Date.now() / 1000) + 60},janus,janus.plugin.videoroom`;
  return `${data}:${crypto.createHmac('sha1', secret).update(data).digest('base64')}`;
}

await check('d. Janus: no session without a signed token', async () => {
  const j = await janusSocket();
  try {
    const none = await j.send({ janus: 'create' });
    assert(none.janus === 'error', `a session without a token: ${JSON.stringify(none)}`);
    const forged = await j.send({ janus: 'create', token: janusToken('wrong') });
    assert(forged.janus === 'error', `a session with a forged token: ${JSON.stringify(forged)}`);
    return `refused: ${none.error?.reason}`;
  } finally {
    j.ws.close();
  }
});

await check('d. Janus: create a videoroom with a string id (admin_key only)', async () => {
  const j = await janusSocket();
  try {
    const token = janusToken();
    const session = await j.send({ janus: 'create', token });
    assert(session.janus === 'success', JSON.stringify(session));
    const session_id = session.data.id;
    const handle = await j.send({ janus: 'attach', session_id, token, plugin: 'janus.plugin.videoroom' });
    assert(handle.janus === 'success', JSON.stringify(handle));
    const handle_id = handle.data.id;
    const roomId = `g1--check${run}`;
    const body = { request: 'create', room: roomId, publishers: 10, pin: crypto.randomBytes(8).toString('hex'), secret: 's' + run };
    const keyless = await j.send({ janus: 'message', session_id, handle_id, token, body });
    assert(keyless.plugindata?.data?.error_code, `a room created without the admin_key: ${JSON.stringify(keyless)}`);
    const created = await j.send({ janus: 'message', session_id, handle_id, token, body: { ...body, admin_key: JANUS_ROOM_ADMIN_KEY } });
    const data = created.plugindata?.data;
    assert(data?.videoroom === 'created' && data.room === roomId, JSON.stringify(created));
    await j.send({ janus: 'message', session_id, handle_id, token, body: { request: 'destroy', room: roomId, secret: body.secret } });
    await j.send({ janus: 'destroy', session_id, token });
    return `room "${data.room}"; without the admin_key: ${keyless.plugindata.data.error}`;
  } finally {
    j.ws.close();
  }
});

await check('d. Janus: admin API takes JANUS_ADMIN_SECRET', async () => {
  const post = (admin_secret) =>
    fetch(JANUS_ADMIN_URL, {
      method: 'POST',
      // `ping` needs no secret in Janus; list_sessions does.
      body: JSON.stringify({ janus: 'list_sessions', transaction: 'check', admin_secret }),
      signal: AbortSignal.timeout(5000),
    }).then((r) => r.json());
  const ok = await post(JANUS_ADMIN_SECRET);
  assert(ok.janus === 'success', JSON.stringify(ok));
  const bad = await post('wrong');
  assert(bad.janus === 'error', `a wrong admin secret was accepted: ${JSON.stringify(bad)}`);
  return `${ok.sessions.length} sessions listed; a wrong secret is refused`;
});

await check('e. coturn: listens (TCP) and answers a STUN binding request (UDP)', async () => {
  await withTimeout(
    new Promise((resolve, reject) => {
      const s = net.connect(TURN_PORT, '127.0.0.1', () => {
        s.end();
        resolve();
      });
      s.on('error', reject);
    }),
    3000,
    'tcp connect',
  );
  const sock = dgram.createSocket('udp4');
  try {
    const tid = crypto.randomBytes(12);
    const req = Buffer.concat([Buffer.from([0x00, 0x01, 0x00, 0x00, 0x21, 0x12, 0xa4, 0x42]), tid]);
    const answer = await withTimeout(
      new Promise((resolve, reject) => {
        sock.on('message', resolve);
        sock.on('error', reject);
        sock.send(req, TURN_PORT, '127.0.0.1');
      }),
      3000,
      'STUN binding',
    );
    assert(
      answer.readUInt16BE(0) === 0x0101 && answer.subarray(8, 20).equals(tid),
      'not a STUN binding success',
    );
    return `turn:127.0.0.1:${TURN_PORT}`;
  } finally {
    sock.close();
  }
});

// A TURN Allocate with the credentials ejabberd handed out proves both share TURN_SECRET.
await check('e. coturn: TURN allocation with the XEP-0215 credentials (shared secret matches)', async () => {
  assert(turnCredentials, 'no credentials from step c');
  const sock = dgram.createSocket('udp4');
  const exchange = (msg) =>
    withTimeout(
      new Promise((resolve, reject) => {
        sock.once('message', resolve);
        sock.once('error', reject);
        sock.send(msg, TURN_PORT, '127.0.0.1');
      }),
      3000,
      'TURN allocate',
    );
  try {
    const udp = Buffer.from([17, 0, 0, 0]); // REQUESTED-TRANSPORT: UDP
    const first = await exchange(stunMessage(0x0003, crypto.randomBytes(12), [[0x0019, udp]]));
    const a = stunAttrs(first);
    assert(
      first.readUInt16BE(0) === 0x0113 && a.has(0x0014) && a.has(0x0015),
      'expected a 401 with realm and nonce',
    );
    const realm = a.get(0x0014);
    const nonce = a.get(0x0015);
    const key = crypto
      .createHash('md5')
      .update(`${turnCredentials.username}:${realm}:${turnCredentials.credential}`)
      .digest();
    const attrs = [
      [0x0019, udp],
      [0x0006, Buffer.from(turnCredentials.username)],
      [0x0014, realm],
      [0x0015, nonce],
    ];
    const second = await exchange(stunMessage(0x0003, crypto.randomBytes(12), attrs, key));
    const b = stunAttrs(second);
    if (second.readUInt16BE(0) !== 0x0103) {
      const err = b.get(0x0009);
      throw new Error(
        `allocate refused: ${err ? `${err[2] * 100 + err[3]} ${err.subarray(4)}` : second.readUInt16BE(0).toString(16)}`,
      );
    }
    const relay = b.get(0x0016); // XOR-RELAYED-ADDRESS
    const port = relay.readUInt16BE(2) ^ 0x2112;
    const ip = [...relay.subarray(4, 8)].map((x, i) => x ^ [0x21, 0x12, 0xa4, 0x42][i]).join('.');
    // Release the allocation (Refresh with LIFETIME 0).
    await exchange(
      stunMessage(0x0004, crypto.randomBytes(12), [[0x000d, Buffer.alloc(4)], ...attrs.slice(1)], key),
    ).catch(() => undefined);
    return `relay ${ip}:${port} for ${realm}`;
  } finally {
    sock.close();
  }
});

console.log(failures === 0 ? 'check-stack: all OK' : `check-stack: ${failures} FAILED`);
process.exit(failures === 0 ? 0 : 1);
