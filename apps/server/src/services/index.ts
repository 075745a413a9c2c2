import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { createCallReportsRepository } from '../repositories/callReports.ts';
import { createCompaniesRepository } from '../repositories/companies.ts';
import { createGuestsRepository } from '../repositories/guests.ts';
import { createUsersRepository } from '../repositories/users.ts';
import type { EjabberdClient } from './ejabberd.ts';
import type { EventBus } from './events.ts';
import type { JanusClient } from './janus.ts';
import type { ReportStatusFn } from './reportStatus.ts';
import type { ApiTokens, XmppTokens } from './tokens.ts';

/** Everything a route needs; built once per app (plugins/app/services.ts). */
export interface Services {
  config: Config;
  db: Db;
  repos: {
    companies: ReturnType<typeof createCompaniesRepository>;
    guests: ReturnType<typeof createGuestsRepository>;
    users: ReturnType<typeof createUsersRepository>;
    callReports: ReturnType<typeof createCallReportsRepository>;
  };
  xmppTokens: XmppTokens;
  apiTokens: ApiTokens;
  ejabberd: EjabberdClient;
  janus: JanusClient;
  events: EventBus;
  reportStatus: ReportStatusFn;
  now: () => number;
}

export function createRepositories(db: Db): Services['repos'] {
  return {
    companies: createCompaniesRepository(db.kysely),
    guests: createGuestsRepository(db.kysely),
    users: createUsersRepository(db.kysely),
    callReports: createCallReportsRepository(db.kysely),
  };
}
