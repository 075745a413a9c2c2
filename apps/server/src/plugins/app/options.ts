import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { EjabberdClient } from '../../services/ejabberd.ts';
import type { EventBus } from '../../services/events.ts';
import type { JanusClient } from '../../services/janus.ts';
import type { JanusNodeEndpoints } from '../../config.ts';
import type { NodeHealth } from '../../services/media/janusNodes.ts';
import type { MediaRooms } from '../../services/media/mediaRooms.ts';
import type { ReportStatusFn } from '../../services/reportStatus.ts';
import type { RoutingTimers } from '../../services/roundRobin.ts';

/** What tests (and main) may inject; anything missing is built from the config. */
export interface AppDeps {
  db?: Db;
  ejabberd?: EjabberdClient;
  janus?: JanusClient;
  mediaRooms?: MediaRooms;
  /** how a Janus node's health is asked (default: its admin API) */
  janusProbe?: (node: JanusNodeEndpoints) => Promise<NodeHealth>;
  events?: EventBus;
  reportStatus?: ReportStatusFn;
  /** round robin's clock and timers (unit tests drive them by hand) */
  routingTimers?: RoutingTimers;
  now?: () => number;
  /** this instance's id among those sharing the database (default: random) */
  instanceId?: string;
  logger?: FastifyServerOptions['logger'];
  /** serve the front ends and proxy the websockets (default true) */
  web?: boolean;
}

/** The options every autoloaded plugin (plugins/external, plugins/app) is registered with (app.ts). */
export interface AppPluginOptions {
  config: Config;
  deps: AppDeps;
}
