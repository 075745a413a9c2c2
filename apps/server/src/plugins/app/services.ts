import crypto from 'node:crypto';
import fp from 'fastify-plugin';
import { createEjabberdClusterClient } from '../../services/ejabberdCluster.ts';
import { createEjabberdHttpClient } from '../../services/ejabberd.ts';
import { createCompanySnapshots } from '../../services/companySnapshots.ts';
import { defaultReportChecks } from '../../services/guestChecks.ts';
import { createGeofencePasses } from '../../services/geofencePasses.ts';
import type { Services } from '../../services/index.ts';
import { createJanusHttpClient } from '../../services/janus.ts';
import { createLoginThrottle } from '../../services/loginThrottle.ts';
import { HEALTH_EVERY_MS, janusNodesOf } from '../../services/media/janusNodes.ts';
import { createJanusTokens } from '../../services/media/janusTokens.ts';
import { createMediaRooms } from '../../services/media/mediaRooms.ts';
import { createMediaRoomsRepository } from '../../repositories/mediaRooms.ts';
import { recordingsRoot } from '../../services/recordings/index.ts';
import { createReportStatus } from '../../services/reportStatus.ts';
import { createEventBusFor } from '../../services/pgEventBus.ts';
import { BEAT_MS, RoundRobin, realTimers } from '../../services/roundRobin.ts';
import { createApiTokens, createXmppTokens } from '../../services/tokens.ts';
import { createJobLocks } from '../../services/jobLocks.ts';
import { createPeriodicJob, runWhileServing } from '../../services/periodicJob.ts';
import { createSharedStateSweep } from '../../services/sharedStateSweep.ts';
import { createVanishedGuestSweep } from '../../services/vanishedGuests.ts';
import { createGuestRoomJanitor } from '../../services/guestRoomJanitor.ts';
import { createGuestDepartures } from '../../services/guestDepartures.ts';
import type { App } from '../../typebox.ts';
import type { AppPluginOptions } from './options.ts';
// app.db and app.repos (decorated by the plugins this one depends on; these imports only bring their types)
import type {} from './db.ts';
import type {} from './repositories.ts';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
  interface FastifyContextConfig {
    /**
     * A console write that changes nothing a company snapshot holds (services/companySnapshots.ts): its
     * answer does not drop the company's snapshot. An agent's media grant, on every call answered.
     */
    companyUnchanged?: boolean;
  }
}

/**
 * The services every route uses, built once per app: whatever AppDeps injects (tests: fake ejabberd and
 * Janus, a hand-driven clock) and the rest from the config. Routes read them as `app.services`.
 */
export default fp(
  (app: App, { config, deps }: AppPluginOptions, done: (err?: Error) => void) => {
    const { db, repos } = app;
    const now = deps.now ?? Date.now;
    const log = (message: string, error?: unknown) => (error ? app.log.warn({ err: error }, message) : app.log.info(message));
    // this process among the instances sharing the database (docs/architecture.md "Shared state")
    const instanceId = deps.instanceId ?? crypto.randomUUID();
    const events = deps.events ?? createEventBusFor(db, { instanceId, log, now });
    const janusTokens = createJanusTokens(config.janusTokenSecret, now);
    // EJABBERD_API_URL: every node of the cluster, comma-separated (services/ejabberdCluster.ts)
    const ejabberd =
      deps.ejabberd ??
      createEjabberdClusterClient(
        config.ejabberdApiUrl.split(',').map((apiUrl) =>
          createEjabberdHttpClient({ apiUrl: apiUrl.trim(), host: config.xmppDomain, guestHost: config.xmppGuestDomain, mucService: config.xmppMucDomain }),
        ),
        { log },
      );
    const roundRobin = new RoundRobin({
      db,
      instanceId,
      timers: deps.routingTimers ?? { ...realTimers, now },
      publish: (routing) => events.publish('callRouting', routing),
      warn: log,
    });
    // one instance at a time runs each periodic job (services/jobLocks.ts)
    const jobLocks = createJobLocks(db, log);
    const mediaRoomsRepo = createMediaRoomsRepository(db.kysely);
    const janusNodes = janusNodesOf(config, db.kysely, { rooms: mediaRoomsRepo, tokens: janusTokens, now, probe: deps.janusProbe });
    const services: Services = {
      config,
      db,
      repos,
      companySnapshots: createCompanySnapshots(
        {
          byId: (id) => repos.companies.byId(id),
          assignments: (id) => repos.companies.assignments(id),
          quotaRows: (id) => repos.guestRules.quotaRows(id),
          blockedUsernames: (id) => repos.guestRules.blockedUsernames(id),
          agentsOfAssignments: (id) => repos.companies.agentsOfAssignments(id),
          idByHost: (host) => repos.companies.idByHost(host),
        },
        { ttlMs: config.companyCacheMs },
      ),
      xmppTokens: createXmppTokens(config.xmppJwtSecret, 3600, now),
      apiTokens: createApiTokens(config.apiTokenSecret, 7200, now),
      ejabberd,
      janus: deps.janus ?? createJanusHttpClient(config.janusNodes),
      janusTokens,
      janusNodes,
      mediaRooms:
        deps.mediaRooms ??
        createMediaRooms({
          repo: mediaRoomsRepo,
          nodes: janusNodes,
          tokens: janusTokens,
          recordingsRoot: recordingsRoot(config),
          tokenTtlSeconds: config.openCallHours * 3600,
          now,
        }),
      events,
      reportStatus: deps.reportStatus ?? createReportStatus(defaultReportChecks),
      geofencePasses: createGeofencePasses(db.kysely, now),
      loginThrottle: createLoginThrottle(db.kysely, now),
      jobLocks,
      roundRobin,
      // guests whose browser closed or crashed without a word: their calls are closed within seconds
      // (services/vanishedGuests.ts, docs/operations.md "Calls whose guest vanished")
      vanishedGuests: createVanishedGuestSweep({
        db: db.kysely,
        ejabberd,
        now,
        openMs: config.openCallHours * 3600_000,
        callGone: (callId) => void roundRobin.callClosed(callId).catch((error: unknown) => log('round robin: closing a call failed', error)),
        backstopLock: jobLocks.lock('vanished-guest backstop'),
        log,
      }),
      // the rooms of guests gone for good (services/guestDepartures.ts)
      guestDepartures: createGuestDepartures({ db: db.kysely, guests: repos.guests, ejabberd, now, openMs: config.openCallHours * 3600_000, log }),
      now,
    };
    app.decorate('services', services);

    // A console write (settings, assignments, quotas, activation…) may change what opening a call reads:
    // the company's snapshot is dropped before the answer leaves (the bus delivers in process at once), so
    // the writer's next call sees it, and every other instance drops it when the notification arrives.
    // A route that says it changes none of it (`companyUnchanged`) keeps the snapshot.
    app.addHook('onSend', (request, reply, payload, done) => {
      const user = request.consoleUser;
      if (user && request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400 && !request.routeOptions.config.companyUnchanged) {
        events.publish('companyChanged', { companyId: user.companyId });
      }
      done(null, payload);
    });
    events.subscribe('companyChanged', ({ companyId }) => services.companySnapshots.invalidate(companyId));
    // notifications may have been missed while the bus was away: nothing cached is trusted
    events.subscribe('resync', () => services.companySnapshots.invalidate());

    // the bus listens before the app serves; this instance's agents leave round robin when it stops
    app.addHook('onReady', async () => {
      // the configured Janus nodes' rows, and their health before the first room is placed
      await janusNodes.sync();
      await janusNodes.checkHealth().catch((error: unknown) => log('janus nodes: health check failed', error));
      await events.start?.();
      await roundRobin.beat();
    });
    // preClose: before the onClose hooks, one of which closes the database (main.ts)
    app.addHook('preClose', async () => {
      await roundRobin.leave().catch((error: unknown) => log('round robin: leaving failed', error));
      await events.close?.();
    });
    // alive for the other instances; offers past their deadline or whose agent is gone move on, whichever
    // instance polls first (services/roundRobin.ts)
    runWhileServing(app, createPeriodicJob('round robin beat', () => roundRobin.beat(), log), BEAT_MS, { lock: 'each instance' });
    runWhileServing(app, createPeriodicJob('round robin deadlines', () => roundRobin.moveDue(), log), 1000, { lock: 'each instance' });

    // every instance asks every Janus node: placement trusts a node only while someone checks it
    runWhileServing(app, createPeriodicJob('janus node health', () => janusNodes.checkHealth(), log), HEALTH_EVERY_MS, { lock: 'each instance' });

    // rooms whose call never reported its end are destroyed once no token for them is valid
    const staleRooms = createPeriodicJob('stale media-room sweep', () => services.mediaRooms.sweepStale(), log);
    runWhileServing(app, staleRooms, 10 * 60_000, { lock: jobLocks.lock('stale media-room sweep') });

    // The rooms guests left are followed every 3 s by the instance whose ejabberd events told of them (events
    // reach one instance each); the backstop over every open call, once a minute, by one instance
    // (services/vanishedGuests.ts). Departures, likewise, are the sessions ended that this instance heard of.
    runWhileServing(app, services.vanishedGuests, 3000, { lock: 'each instance' });
    runWhileServing(app, services.guestDepartures, 15_000, { lock: 'each instance' });

    // guest rooms nobody can use any more are destroyed (services/guestRoomJanitor.ts): the backstop of
    // guestDepartures for guests whose session events were lost or who never connected
    const guestRooms = createGuestRoomJanitor({
      db: db.kysely,
      guests: services.repos.guests,
      ejabberd,
      now,
      keepMs: config.openCallHours * 3600_000,
      log,
    });
    runWhileServing(app, guestRooms, 60_000, { lock: jobLocks.lock('guest-room janitor') });

    // rows of rate limits and login throttling past their time (services/sharedStateSweep.ts)
    runWhileServing(app, createSharedStateSweep(services, log), 60_000, { lock: jobLocks.lock('shared-state sweep') });
    // the locks go last: their connection closes once every job has stopped
    app.addHook('onClose', async () => jobLocks.close());
    done();
  },
  { name: 'services', dependencies: ['repositories'] },
);
