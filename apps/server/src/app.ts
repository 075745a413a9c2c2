import cookie from '@fastify/cookie';
import Fastify from 'fastify';
import type { FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';
import { openDb } from './db/database.ts';
import type { Db } from './db/database.ts';
import { registerAuth } from './plugins/app/auth.ts';
import { AJV_OPTIONS, formatSchemaErrors, registerValidation } from './plugins/app/validation.ts';
import { registerHelmet } from './plugins/external/helmet.ts';
import { registerRateLimit } from './plugins/external/rateLimit.ts';
import { registerSwagger } from './plugins/external/swagger.ts';
import { adminAppointmentRoutes } from './routes/api/admin/appointments.ts';
import { adminAssignmentGroupRoutes } from './routes/api/admin/assignment-groups.ts';
import { adminAssignmentRoutes } from './routes/api/admin/assignments.ts';
import { adminCompanyRoutes } from './routes/api/admin/company.ts';
import { adminScheduleRoutes } from './routes/api/admin/schedule.ts';
import { adminUserRoutes } from './routes/api/admin/users.ts';
import { adminBlockedGuestRoutes } from './routes/api/admin/blocked-guests.ts';
import { adminFormsRoutes } from './routes/api/admin/forms.ts';
import { adminGeofenceRoutes } from './routes/api/admin/geofence-zones.ts';
import { adminQuotaRoutes } from './routes/api/admin/quotas.ts';
import { callBugRoutes } from './routes/api/call-bug/index.ts';
import { holdCallRoute } from './routes/api/call-report/hold-call.ts';
import { fileRoutes } from './routes/api/files/index.ts';
import { formSubmissionRoutes } from './routes/api/form-submission/index.ts';
import { geoFenceRoutes } from './routes/api/geo-fence/index.ts';
import { ratingRoutes } from './routes/api/rating-form/index.ts';
import { uploadRoutes } from './routes/api/upload/index.ts';
import { callReportRoutes } from './routes/api/call-report/index.ts';
import { companyRoutes } from './routes/api/company/index.ts';
import { consoleRoutes } from './routes/api/console/index.ts';
import { guestAppointmentRoutes } from './routes/api/appointment/index.ts';
import { consoleTransferRoutes } from './routes/api/console/transfers.ts';
import { consoleReportRoutes } from './routes/api/console/reports.ts';
import { consoleCallRoutes } from './routes/api/console/calls.ts';
import { consoleRecordingRoutes } from './routes/api/console/recordings.ts';
import { guestAuthRoutes } from './routes/api/guest-auth/index.ts';
import { guestRoutes } from './routes/api/guest/index.ts';
import { healthRoutes } from './routes/api/health.ts';
import { createEjabberdHttpClient } from './services/ejabberd.ts';
import type { EjabberdClient } from './services/ejabberd.ts';
import { createEventBus } from './services/events.ts';
import type { EventBus } from './services/events.ts';
import { createRepositories } from './services/index.ts';
import type { Services } from './services/index.ts';
import { createJanusHttpClient } from './services/janus.ts';
import { createJanusVideoroomAdmin } from './services/media/janusAdmin.ts';
import { createJanusTokens } from './services/media/janusTokens.ts';
import { createMediaRooms, type MediaRooms } from './services/media/mediaRooms.ts';
import { createMediaRoomsRepository } from './repositories/mediaRooms.ts';
import { recordingsRoot } from './services/recordings/index.ts';
import { mediaRoutes } from './routes/api/media/index.ts';
import { registerJanusGate } from './web/janusGate.ts';
import type { JanusClient } from './services/janus.ts';
import { defaultReportChecks } from './services/guestChecks.ts';
import { createGeofencePasses } from './services/geofencePasses.ts';
import { createLoginThrottle } from './services/loginThrottle.ts';
import { createReportStatus } from './services/reportStatus.ts';
import { RoundRobin, realTimers } from './services/roundRobin.ts';
import type { RoutingTimers } from './services/roundRobin.ts';
import type { ReportStatusFn } from './services/reportStatus.ts';
import { createApiTokens, createXmppTokens } from './services/tokens.ts';
import type { TypeBoxProvider } from './typebox.ts';
import type { App } from './typebox.ts';
import { registerProxies } from './web/proxies.ts';
import { registerStatic, sendGuestNotFound, wantsPage } from './web/static.ts';
import { registerWidget } from './web/widget.ts';

/** What tests (and main) may inject; anything missing is built from the config. */
export interface AppDeps {
  db?: Db;
  ejabberd?: EjabberdClient;
  janus?: JanusClient;
  mediaRooms?: MediaRooms;
  events?: EventBus;
  reportStatus?: ReportStatusFn;
  /** round robin's clock and timers (unit tests drive them by hand) */
  routingTimers?: RoutingTimers;
  now?: () => number;
  logger?: FastifyServerOptions['logger'];
  /** serve the front ends and proxy the websockets (default true) */
  web?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

export async function buildApp(config: Config, deps: AppDeps = {}): Promise<App> {
  const app = Fastify({
    logger: deps.logger ?? { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    ajv: AJV_OPTIONS,
    schemaErrorFormatter: formatSchemaErrors,
    // Long-lived SSE and proxied websockets must not keep the process alive on close.
    forceCloseConnections: true,
  }).withTypeProvider<TypeBoxProvider>();

  const ownsDb = !deps.db;
  const db = deps.db ?? openDb(config.databaseUrl);
  const now = deps.now ?? Date.now;
  const events = deps.events ?? createEventBus();
  const janusTokens = createJanusTokens(config.janusTokenSecret, now);
  const services: Services = {
    config,
    db,
    repos: createRepositories(db),
    xmppTokens: createXmppTokens(config.xmppJwtSecret, 3600, now),
    apiTokens: createApiTokens(config.apiTokenSecret, 7200, now),
    ejabberd:
      deps.ejabberd ??
      createEjabberdHttpClient({ apiUrl: config.ejabberdApiUrl, host: config.xmppDomain, mucService: config.xmppMucDomain }),
    janus: deps.janus ?? createJanusHttpClient(config.janusHttpUrl),
    mediaRooms:
      deps.mediaRooms ??
      createMediaRooms({
        repo: createMediaRoomsRepository(db.kysely),
        janus: createJanusVideoroomAdmin(config.janusHttpUrl, config.janusRoomAdminKey, janusTokens),
        tokens: janusTokens,
        recordingsRoot: recordingsRoot(config),
        tokenTtlSeconds: config.openCallHours * 3600,
        now,
      }),
    events,
    reportStatus: deps.reportStatus ?? createReportStatus(defaultReportChecks),
    geofencePasses: createGeofencePasses(now),
    loginThrottle: createLoginThrottle(now),
    roundRobin: new RoundRobin({
      timers: deps.routingTimers ?? { ...realTimers, now },
      publish: (routing) => events.publish('callRouting', routing),
    }),
    now,
  };
  app.decorate('services', services);
  if (ownsDb) app.addHook('onClose', async () => db.close());

  // External plugins.
  registerHelmet(app);
  await app.register(cookie);
  await registerRateLimit(app);
  await registerSwagger(app);

  // Application plugins.
  registerAuth(app, services);
  registerValidation(app);

  // Routes (mirroring the URL tree under routes/api).
  healthRoutes(app, services);
  guestRoutes(app, services);
  guestAuthRoutes(app, services);
  companyRoutes(app, services);
  callReportRoutes(app, services);
  mediaRoutes(app, services);
  guestAppointmentRoutes(app, services);
  consoleRoutes(app, services);
  consoleTransferRoutes(app, services);
  // Service API of SPEC.md §7 (issue 3) and the admin data its guest calls check.
  holdCallRoute(app, services);
  callBugRoutes(app, services);
  formSubmissionRoutes(app, services);
  ratingRoutes(app, services);
  geoFenceRoutes(app, services);
  await uploadRoutes(app, services);
  fileRoutes(app, services);
  adminFormsRoutes(app, services);
  adminGeofenceRoutes(app, services);
  adminQuotaRoutes(app, services);
  adminBlockedGuestRoutes(app, services);
  adminCompanyRoutes(app, services);
  adminAssignmentRoutes(app, services);
  adminAssignmentGroupRoutes(app, services);
  adminUserRoutes(app, services);
  adminScheduleRoutes(app, services);
  adminAppointmentRoutes(app, services);
  consoleReportRoutes(app, services);
  consoleCallRoutes(app, services);
  consoleRecordingRoutes(app, services);
  registerWidget(app, services); // /widget.js, /api/widget/config, frame-ancestors from widgetOrigins

  // Unknown /api paths (and anything that is not a page request) answer JSON 404; a person's browser
  // asking for an unknown page gets the guest app, whose not-found screen says what to do (404 status).
  app.setNotFoundHandler((request, reply) => {
    if (deps.web !== false && wantsPage(request)) return sendGuestNotFound(reply, config);
    return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: `${request.method} ${request.url.split('?')[0]}: no such route` });
  });

  if (deps.web !== false) {
    await registerProxies(app, config);
    registerJanusGate(app, config, janusTokens, services.mediaRooms);
    await registerStatic(app, config);
  }
  return app;
}
