import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { createCallBugsRepository } from '../repositories/callBugs.ts';
import { createCallReportsRepository } from '../repositories/callReports.ts';
import { createCompaniesRepository } from '../repositories/companies.ts';
import { createFormsRepository } from '../repositories/forms.ts';
import { createGuestRulesRepository } from '../repositories/guestRules.ts';
import { createGuestsRepository } from '../repositories/guests.ts';
import { createRecordingPrivacyRepository } from '../repositories/recordingPrivacy.ts';
import { createUploadsRepository } from '../repositories/uploads.ts';
import { createUsersRepository } from '../repositories/users.ts';
import { createWaitingQueueRepository } from '../repositories/waitingQueue.ts';
import type { CompanySnapshots } from './companySnapshots.ts';
import type { EjabberdClient } from './ejabberd.ts';
import type { EventBus } from './events.ts';
import type { GeofencePasses } from './geofencePasses.ts';
import type { LoginThrottle } from './loginThrottle.ts';
import type { JobLocks } from './jobLocks.ts';
import type { JanusClient } from './janus.ts';
import type { JanusTokens } from './media/janusTokens.ts';
import type { JanusNodes } from './media/janusNodes.ts';
import type { MediaRooms } from './media/mediaRooms.ts';
import type { ReportStatusFn } from './reportStatus.ts';
import type { RoundRobin } from './roundRobin.ts';
import type { ApiTokens, XmppTokens } from './tokens.ts';
import type { GuestDepartures } from './guestDepartures.ts';
import type { VanishedGuestSweep } from './vanishedGuests.ts';

/** Everything a route needs; built once per app (plugins/app/services.ts, on plugins/app/repositories.ts). */
export interface Services {
  config: Config;
  db: Db;
  repos: {
    companies: ReturnType<typeof createCompaniesRepository>;
    guests: ReturnType<typeof createGuestsRepository>;
    users: ReturnType<typeof createUsersRepository>;
    callReports: ReturnType<typeof createCallReportsRepository>;
    forms: ReturnType<typeof createFormsRepository>;
    guestRules: ReturnType<typeof createGuestRulesRepository>;
    callBugs: ReturnType<typeof createCallBugsRepository>;
    uploads: ReturnType<typeof createUploadsRepository>;
    /** recording consent and the log of deleted recordings */
    recordingPrivacy: ReturnType<typeof createRecordingPrivacyRepository>;
    /** a waiting call's place and its pool's history (services/waitingPlace.ts) */
    waitingQueue: ReturnType<typeof createWaitingQueueRepository>;
  };
  /** each company's row, assignments and quotas as opening a call reads them (cached; dropped on console writes) */
  companySnapshots: CompanySnapshots;
  xmppTokens: XmppTokens;
  apiTokens: ApiTokens;
  ejabberd: EjabberdClient;
  janus: JanusClient;
  /** signs the per-call Janus tokens (media rooms and the websocket gate) */
  janusTokens: JanusTokens;
  /** the Janus nodes rooms are placed on, their health and their admin clients (docs/operations.md "Scaling") */
  janusNodes: JanusNodes;
  /** each call's Janus room, created, recorded and destroyed by the server */
  mediaRooms: MediaRooms;
  events: EventBus;
  reportStatus: ReportStatusFn;
  /** guests recently placed inside the service area (call-report/add requires it when the company requests location; on the guest's row) */
  geofencePasses: GeofencePasses;
  /** console login: progressive delays per account and address (services/loginThrottle.ts) */
  loginThrottle: LoginThrottle;
  /** which instance runs each periodic job (services/jobLocks.ts) */
  jobLocks: JobLocks;
  /** round robin offering of waiting calls (docs/protocol.md) */
  roundRobin: RoundRobin;
  /** closes the calls of guests gone from their rooms; told of rooms left and joined by ejabberd's events */
  vanishedGuests: VanishedGuestSweep;
  /** destroys the rooms of guests gone for good; told of sessions ended and opened by ejabberd's events */
  guestDepartures: GuestDepartures;
  now: () => number;
}

export function createRepositories(db: Db): Services['repos'] {
  return {
    companies: createCompaniesRepository(db.kysely),
    guests: createGuestsRepository(db.kysely, db),
    users: createUsersRepository(db.kysely, db),
    callReports: createCallReportsRepository(db.kysely, db),
    forms: createFormsRepository(db.kysely, db),
    guestRules: createGuestRulesRepository(db.kysely),
    callBugs: createCallBugsRepository(db.kysely),
    uploads: createUploadsRepository(db.kysely),
    recordingPrivacy: createRecordingPrivacyRepository(db.kysely),
    waitingQueue: createWaitingQueueRepository(db.kysely),
  };
}
