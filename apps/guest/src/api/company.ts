// Company details: the settings of the guest experience (SPEC.md §3 "Company details").
// Local type for now; it will be replaced by the schema type from @lobby/contracts.
import { apiRequest } from '@lobby/call/http';

export type CallMethod = 'mediaServer' | 'p2p';
/** What the company lets the guest do: choose, or voice only, or video only. */
export type CompanyCallType = 'userSelect' | 'voice' | 'video';
/** 'arabic' → Arabic, rtl; 'multilingual' → the guest can switch; anything else → English. */
export type CompanyLanguage = 'multilingual' | 'arabic' | 'english';
export type RatingStyle = 'stars' | 'emojies';
export type AssignmentFilter = 'all' | 'queue' | 'appointment';

export interface Assignment {
  id: number | string;
  name: string;
  /** queue (anyone of the assignment answers) or appointment (calls booked with one agent). */
  type?: 'queue' | 'appointment';
  name_ar?: string | null;
  description?: string | null;
  description_ar?: string | null;
}

export interface AssignmentGroup {
  id: number | string;
  name: string;
  name_ar?: string | null;
  assignmentIds: Array<number | string>;
}

/** One opening period of the timetable; `day` 0 = Sunday … 6 = Saturday, times 'HH:MM' in the schedule's timezone. */
export interface ScheduleEntry {
  day: number;
  from: string;
  to: string;
}

/** Opening hours (contracts `Schedule`); null = always open. */
export interface CompanySchedule {
  timezone: string;
  weekly: ScheduleEntry[];
  /** holidays (YYYY-MM-DD in `timezone`), closed whatever `weekly` says */
  closedDays?: string[];
}

export interface FormOption {
  value: string;
  label: string;
  label_ar?: string | null;
}

export interface FormField {
  key: string;
  type: 'text' | 'email' | 'tel' | 'number' | 'textarea' | 'select' | 'checkbox' | 'stars' | 'emojies';
  label: string;
  label_ar?: string | null;
  required: boolean;
  options?: FormOption[];
  order: number;
}

/** docs/api.md "Forms". */
export interface FormDefinition {
  id: number | string;
  kind: 'welcome' | 'rating';
  title: string;
  title_ar?: string | null;
  fields: FormField[];
}

/** The company message fields; each has an optional `_ar` variant. */
export { MESSAGE_KEYS as COMPANY_MESSAGE_KEYS, type MessageKey as CompanyMessageKey } from '@lobby/contracts/messages';
import type { MessageKey as CompanyMessageKey } from '@lobby/contracts/messages';
type CompanyMessages = { [K in CompanyMessageKey]?: string | null } & {
  [K in CompanyMessageKey as `${K}_ar`]?: string | null;
};

export interface Company extends CompanyMessages {
  id: number;
  activated: boolean;
  name: string;
  host?: string | null;
  conferenceName?: string | null;
  details?: string | null;
  schedule?: CompanySchedule | null;
  /** The deployment's switch for automated browsers (LOBBY_ALLOW_AUTOMATION; docs/guest-journey.md "Bots"). */
  allowAutomation?: boolean;
  /** The deployment's error-reporting DSN (LOBBY_SENTRY_DSN); null or absent: nothing is reported. */
  sentryDsn?: string | null;

  callMethod?: CallMethod;
  callType?: CompanyCallType;
  language?: CompanyLanguage;
  multilang?: boolean;

  // Look
  logoImageUrl?: string | null;
  websiteUrl?: string | null;
  websiteTitle?: string | null;
  backgroundImgUrl?: string | null;
  backgroundColor?: string | null;
  textColor?: string | null;
  categoryTextColor?: string | null;
  categoryBackgroundColor?: string | null;
  /** 'list' or 'grid'. */
  categoryStyle?: string | null;
  waterMarkLogo?: string | null;
  poweredByLogo?: string | null;
  fontFamily?: string | null;
  faviconUrl?: string | null;
  waitingImageUrl?: string | null;
  holdPageImage?: string | null;
  ratingPageImage?: string | null;
  hideTimetable?: boolean;

  // Behaviour
  recordCalls?: boolean;
  flipCamera?: boolean;
  locationOfService?: { type: string; coordinates: unknown[] } | null;
  requestLocation?: boolean;
  showRatingPage?: boolean;
  previewScreen?: boolean;
  welcomeForm?: boolean;
  ratingStyle?: RatingStyle;
  advanceRating?: boolean;
  ratingForm?: { id: number | string } | null;
  streamWatermark?: 'hidden' | 'visible' | boolean;
  roundRobin?: boolean;
  assignments?: Assignment[];
  assignmentGroups?: AssignmentGroup[];
  assignmentFilter?: AssignmentFilter;
  forms?: { welcome: FormDefinition | null; rating: FormDefinition | null };
}

/** `GET /api/company/details`: the company of this site (the server knows it from the host). */
export function fetchCompanyDetails(signal?: AbortSignal): Promise<Company> {
  return apiRequest<Company>('/company/details', { signal });
}
