import type { ColumnType, Generated } from 'kysely';

/**
 * The database tables (Kysely types). Portable conventions, the same on SQLite and PostgreSQL:
 * - timestamps are `bigint` epoch milliseconds (numbers in JS on both dialects);
 * - booleans are integers 0/1;
 * - JSON documents are text.
 */
export interface CompaniesTable {
  id: Generated<number>;
  name: string;
  host: string;
  activated: number;
  /** JSON of CompanySettings (partial; missing keys take companyDefaults) */
  settings: string;
  created_at: number;
}

export interface AssignmentsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  type: 'queue' | 'appointment';
  position: number;
  created_at: number;
}

export interface AssignmentGroupsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  position: number;
}

export interface AssignmentGroupMembersTable {
  group_id: number;
  assignment_id: number;
}

export interface UsersTable {
  id: Generated<number>;
  company_id: number;
  email: string;
  name: string;
  role: 'admin' | 'supervisor' | 'agent';
  password_hash: string;
  xmpp_username: string;
  created_at: number;
  /** the user's picture: an uploads.id of its company (migration 0010), or null */
  profile_image_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface UserAssignmentsTable {
  user_id: number;
  assignment_id: number;
}

export interface ConsoleSessionsTable {
  /** HMAC-SHA256 of the cookie's random id (base64url) */
  id: string;
  user_id: number;
  created_at: number;
  expires_at: number;
}

export interface GuestsTable {
  username: string;
  company_id: number;
  /** SHA-256 of the browser's persistent guest id (hex); the raw id is never stored */
  guest_id_hash: string;
  created_at: number;
  /** the guest's last geofence pass (PUT /api/geo-fence/check inside): services/geofencePasses.ts */
  geofence_passed_at: number | null;
}

export interface GuestRoomsTable {
  guest_username: string;
  assignment_id: number;
  room_jid: string;
  /** when the room was last provisioned (registration, guest auth): services/guestRoomJanitor.ts */
  created_at: number;
}

export interface CallReportsTable {
  id: Generated<number>;
  call_id: string;
  company_id: number;
  guest_username: string;
  assignment_id: number | null;
  room_jid: string | null;
  source: string;
  appointment_reference: string | null;
  service_type: string | null;
  status: 'ok' | 'outOfQuota' | 'blocked';
  success: number | null;
  agent: string | null;
  call_initiated_at: number | null;
  call_answered_at: number | null;
  call_ended_at: number | null;
  guest_exit_at: number | null;
  guest_local_sdp: string | null;
  guest_remote_sdp: string | null;
  created_at: number;
  /** hold-call: the first call of the chain, and the call this one replaced */
  origin_call_id: Generated<string | null>;
  previous_call_id: Generated<string | null>;
  /** the guest's position at the call (strings), when the company asks for it */
  latitude: Generated<string | null>;
  longitude: Generated<string | null>;
  /** the agent's note after the call (wrap-up): text, author (users.id), epoch ms */
  agent_note: Generated<string | null>;
  agent_note_by: Generated<number | null>;
  agent_note_at: Generated<number | null>;
  /**
   * epoch ms: an agent of the company first took the call's media (its console media grant), as the server
   * saw it; "answered" for the rules (call_answered_at is the guest's report, for talk times only)
   */
  agent_answered_at: Generated<number | null>;
  /** a keyed hash of the address the call was opened from (services/openCalls.ts), for the per-address cap */
  opened_from: Generated<string | null>;
  /** epoch ms: the guest left the queue by booking a time (migration 0017): booked, not abandoned */
  booked_at: Generated<number | null>;
}

export interface FormsTable {
  id: Generated<number>;
  company_id: number;
  kind: 'welcome' | 'rating';
  title: string;
  title_ar: string | null;
  /** JSON of FormField[] */
  fields: string;
  created_at: number;
  updated_at: number;
}

export interface FormSubmissionsTable {
  id: Generated<number>;
  company_id: number;
  form_id: number;
  guest_username: string;
  service_type: string;
  /** JSON of Answers */
  answers: string;
  created_at: number;
}

export interface RatingSubmissionsTable {
  id: Generated<number>;
  company_id: number;
  call_report_id: number;
  form_id: number | null;
  guest_username: string;
  answers: string;
  created_at: number;
}

export interface GeofenceZonesTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  kind: 'polygon' | 'circle';
  /** JSON: polygon `{coordinates: [lng, lat][]}`, circle `{center: {lat, lng}, radiusMeters}` */
  geometry: string;
  created_at: number;
}

export interface QuotasTable {
  id: Generated<number>;
  company_id: number;
  period: 'day' | 'week' | 'month';
  max_calls: number;
  created_at: number;
}

export interface BlockedGuestsTable {
  id: Generated<number>;
  company_id: number;
  guest_username: string;
  reason: string;
  created_at: number;
}

export interface CallBugsTable {
  id: Generated<number>;
  company_id: number;
  call_id: string;
  guest_username: string;
  guest_id: string | null;
  guest_log: string;
  guest_state: string;
  guest_client_info: string;
  created_at: number;
}

export interface UploadsTable {
  /** random, unguessable (base64url) */
  id: string;
  company_id: number;
  guest_username: string | null;
  user_id: number | null;
  type: string;
  mime: string;
  size: number;
  original_name: string;
  created_at: number;
}

/** one limited key's count in its window (services/rateLimitStore.ts) */
export interface RateLimitsTable {
  key: string;
  window_start: number;
  count: number;
  expires_at: number;
}

/** wrong-password counts and known addresses of console logins (services/loginThrottle.ts) */
export interface LoginThrottleTable {
  key: string;
  count: number;
  last_at: number;
}

export interface UploadBytesTable {
  upload_id: string;
  bytes: Buffer;
}

/** the instance mixing a conversation's recording now (services/recordings/mixClaims.ts) */
export interface RecordingMixesTable {
  company_id: number;
  origin_call_id: string;
  claimed_by: string | null;
  claimed_until: number;
  failed_newest: number | null;
}

export interface Database {
  companies: CompaniesTable;
  assignments: AssignmentsTable;
  assignment_groups: AssignmentGroupsTable;
  assignment_group_members: AssignmentGroupMembersTable;
  users: UsersTable;
  user_assignments: UserAssignmentsTable;
  console_sessions: ConsoleSessionsTable;
  guests: GuestsTable;
  guest_rooms: GuestRoomsTable;
  call_reports: CallReportsTable;
  forms: FormsTable;
  form_submissions: FormSubmissionsTable;
  rating_submissions: RatingSubmissionsTable;
  geofence_zones: GeofenceZonesTable;
  quotas: QuotasTable;
  blocked_guests: BlockedGuestsTable;
  call_bugs: CallBugsTable;
  uploads: UploadsTable;
  rate_limits: RateLimitsTable;
  login_throttle: LoginThrottleTable;
  upload_bytes: UploadBytesTable;
  recording_mixes: RecordingMixesTable;
  routing_instances: RoutingInstancesTable;
  agent_presence: AgentPresenceTable;
  agent_availability: AgentAvailabilityTable;
  call_routing: CallRoutingTable;
  routing_rotation: RoutingRotationTable;
  bus_events: BusEventsTable;
}

/** A running server instance and when it last beat (services/roundRobin.ts). */
export interface RoutingInstancesTable {
  instance_id: string;
  last_seen: number;
}

/** An agent's open console event streams on one instance. */
export interface AgentPresenceTable {
  user_id: number;
  instance_id: string;
  company_id: number;
  xmpp_username: string;
  connections: number;
}

export interface AgentAvailabilityTable {
  user_id: number;
  away: number;
  busy: number;
}

/** Where a round-robin call stands (services/roundRobin.ts). */
export interface CallRoutingTable {
  call_id: string;
  company_id: number;
  assignment_id: number;
  state: 'offered' | 'open';
  offered_user_id: number | null;
  offered_to: string | null;
  expires_at: number | null;
  offer_ms: number;
  /** JSON array of user ids */
  tried: string;
}

export interface RoutingRotationTable {
  assignment_id: number;
  last_user_id: number | null;
}

/** An event too large for a NOTIFY payload (services/pgEventBus.ts). */
export interface BusEventsTable {
  id: Generated<number>;
  name: string;
  payload: string;
  created_at: number;
}
