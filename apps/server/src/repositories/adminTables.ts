import type { Generated, Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Tables added by migration 0003_admin (kept beside the admin repositories). */
export interface AppointmentsTable {
  id: Generated<number>;
  company_id: number;
  reference: string;
  agent_id: number;
  starts_at: number;
  duration_minutes: number;
  note: string;
  created_by: number | null;
  created_at: number;
  /** the guest who booked it (migration 0017); null: made in the console */
  booked_by: Generated<string | null>;
  call_type: Generated<'video' | 'voice' | null>;
  /** the address a guest booked it from, keyed (services/openCalls.ts addressKey) */
  booked_from: Generated<string | null>;
}

export interface AdminDatabase extends Database {
  appointments: AppointmentsTable;
}

export const adminDb = (db: Kysely<Database>) => db as unknown as Kysely<AdminDatabase>;
