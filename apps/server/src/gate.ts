/**
 * The Janus gate as its own process (web/janusGate.ts): nginx sends `/janus` and `/janus-http` here, not
 * to the Lobby server, so that a restart of the API never cuts a call's signalling (e2e infra-nginx),
 * while every browser request to Janus is still checked (docs/security.md "Media plane").
 * Listens on 127.0.0.1:$JANUS_GATE_PORT; reads the rooms' secrets from the server's database. Several
 * gates may run side by side (LOBBY_JANUS_GATES, docs/operations.md "Several Janus gates"): none keeps
 * anything another needs, a session made through one is claimed through another with its token.
 */
import Fastify from 'fastify';
import { loadConfigOrExit } from './config.ts';
import { openDb } from './db/database.ts';
import { createMediaRoomsRepository } from './repositories/mediaRooms.ts';
import { janusNodesOf } from './services/media/janusNodes.ts';
import { createJanusRouter } from './services/media/janusRouter.ts';
import { createJanusTokens } from './services/media/janusTokens.ts';
import { createMediaRooms } from './services/media/mediaRooms.ts';
import { recordingsRoot } from './services/recordings/index.ts';
import type { App } from './typebox.ts';
import { registerJanusGate } from './web/janusGate.ts';

async function main(): Promise<void> {
  const config = loadConfigOrExit('lobby janus gate');
  const port = Number(process.env.JANUS_GATE_PORT ?? 8082);
  // its number among the gates behind nginx (docs/operations.md "Several Janus gates")
  const gate = process.env.LOBBY_GATE ?? '1';
  const db = openDb(config.databaseUrl);
  const app = Fastify({ logger: { level: config.logLevel }, forceCloseConnections: true }) as unknown as App;
  const tokens = createJanusTokens(config.janusTokenSecret);
  const repo = createMediaRoomsRepository(db.kysely);
  // the nodes' endpoints and admin clients; their health is the server instances' to check
  const nodes = janusNodesOf(config, db.kysely, { rooms: repo, tokens, now: Date.now });
  // the server's own media rooms on the same database: the gate reads secrets and nodes, starts recordings
  const rooms = createMediaRooms({
    repo,
    nodes,
    tokens,
    recordingsRoot: recordingsRoot(config),
    tokenTtlSeconds: config.openCallHours * 3600,
    now: Date.now,
  });
  const bridged = registerJanusGate(
    app,
    config,
    tokens,
    rooms,
    undefined,
    undefined,
    createJanusRouter(nodes, rooms, config.janusAdminSecret),
  );
  // which gate this is (LOBBY_GATE, scripts/lib/gates.sh) and how many browser websockets it carries:
  // loopback only (nginx sends it nothing but /janus and /janus-http)
  app.get('/health', () => ({ ok: true, gate, websockets: bridged.websockets() }));
  app.addHook('onClose', async () => db.close());
  await app.listen({ host: '127.0.0.1', port });
  const stop = () => void app.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

await main();
