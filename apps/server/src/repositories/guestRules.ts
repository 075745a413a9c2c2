import type { BlockedGuest, GeofenceZone, GeofenceZoneInput, Quota, QuotaPeriod } from '@lobby/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { DuplicateRow } from './forms.ts';

/** Start (epoch ms, UTC) of the quota period containing `now`: the day, the ISO week (from Monday), the month. */
export function periodStart(period: QuotaPeriod, now: number): number {
  const d = new Date(now);
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  if (period === 'day') return day;
  if (period === 'week') return day - ((d.getUTCDay() + 6) % 7) * 86_400_000;
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

function zoneOf(r: { id: number; name: string; kind: string; geometry: string }): GeofenceZone {
  const g = JSON.parse(r.geometry) as Record<string, unknown>;
  return { ...g, id: r.id, name: r.name, kind: r.kind } as GeofenceZone;
}

function geometryOf(z: GeofenceZoneInput): string {
  return JSON.stringify(z.kind === 'polygon' ? { coordinates: z.coordinates } : { center: z.center, radiusMeters: z.radiusMeters });
}

/** What an admin configures and the guest calls check: geofence zones, call quotas, blocked guests. */
export function createGuestRulesRepository(db: Kysely<Database>) {
  const changed = (r: { numUpdatedRows?: bigint; numDeletedRows?: bigint }) => Number(r.numUpdatedRows ?? r.numDeletedRows ?? 0n) > 0;
  return {
    // Geofence zones.
    async zones(companyId: number): Promise<GeofenceZone[]> {
      const rows = await db.selectFrom('geofence_zones').select(['id', 'name', 'kind', 'geometry']).where('company_id', '=', companyId).orderBy('id').execute();
      return rows.map(zoneOf);
    },
    async addZone(companyId: number, z: GeofenceZoneInput, now: number): Promise<number> {
      const r = await db
        .insertInto('geofence_zones')
        .values({ company_id: companyId, name: z.name, kind: z.kind, geometry: geometryOf(z), created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return r.id;
    },
    async updateZone(companyId: number, id: number, z: GeofenceZoneInput): Promise<boolean> {
      const r = await db
        .updateTable('geofence_zones')
        .set({ name: z.name, kind: z.kind, geometry: geometryOf(z) })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
      return changed(r);
    },
    async removeZone(companyId: number, id: number): Promise<boolean> {
      return changed(await db.deleteFrom('geofence_zones').where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst());
    },

    // Quotas.
    async quotaRows(companyId: number) {
      return db.selectFrom('quotas').select(['id', 'period', 'max_calls']).where('company_id', '=', companyId).orderBy('id').execute();
    },
    /** Accepted ('ok') calls of the company since `since`. */
    async callsSince(companyId: number, since: number): Promise<number> {
      const r = await db
        .selectFrom('call_reports')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('company_id', '=', companyId)
        .where('status', '=', 'ok')
        .where('created_at', '>=', since)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async quotas(companyId: number, now: number): Promise<Quota[]> {
      const rows = await this.quotaRows(companyId);
      return Promise.all(
        rows.map(async (q) => ({ id: q.id, period: q.period, limit: q.max_calls, used: await this.callsSince(companyId, periodStart(q.period, now)) })),
      );
    },
    /** Throws DuplicateRow when the company has a quota for that period. */
    async addQuota(companyId: number, period: QuotaPeriod, limit: number, now: number): Promise<number> {
      const exists = () => db.selectFrom('quotas').select('id').where('company_id', '=', companyId).where('period', '=', period).executeTakeFirst();
      if (await exists()) throw new DuplicateRow(period);
      try {
        const r = await db.insertInto('quotas').values({ company_id: companyId, period, max_calls: limit, created_at: now }).returning('id').executeTakeFirstOrThrow();
        return r.id;
      } catch (err) {
        if (await exists()) throw new DuplicateRow(period);
        throw err;
      }
    },
    async updateQuota(companyId: number, id: number, period: QuotaPeriod, limit: number): Promise<boolean> {
      const other = await db.selectFrom('quotas').select('id').where('company_id', '=', companyId).where('period', '=', period).executeTakeFirst();
      if (other && other.id !== id) throw new DuplicateRow(period);
      return changed(await db.updateTable('quotas').set({ period, max_calls: limit }).where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst());
    },
    async removeQuota(companyId: number, id: number): Promise<boolean> {
      return changed(await db.deleteFrom('quotas').where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst());
    },

    // Blocked guests.
    async blocked(companyId: number): Promise<BlockedGuest[]> {
      const rows = await db.selectFrom('blocked_guests').selectAll().where('company_id', '=', companyId).orderBy('id').execute();
      return rows.map((r) => ({ id: r.id, guestUsername: r.guest_username, reason: r.reason, createdAt: new Date(r.created_at).toISOString() }));
    },
    /** The usernames of the company's blocked guests (services/companySnapshots.ts keeps them). */
    async blockedUsernames(companyId: number): Promise<string[]> {
      const rows = await db.selectFrom('blocked_guests').select('guest_username').where('company_id', '=', companyId).execute();
      return rows.map((r) => r.guest_username);
    },
    async isBlocked(companyId: number, guestUsername: string): Promise<boolean> {
      const r = await db.selectFrom('blocked_guests').select('id').where('company_id', '=', companyId).where('guest_username', '=', guestUsername).executeTakeFirst();
      return r !== undefined;
    },
    /** Throws DuplicateRow when the guest is already blocked. */
    async block(companyId: number, guestUsername: string, reason: string, now: number): Promise<number> {
      if (await this.isBlocked(companyId, guestUsername)) throw new DuplicateRow(guestUsername);
      try {
        const r = await db
          .insertInto('blocked_guests')
          .values({ company_id: companyId, guest_username: guestUsername, reason, created_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        return r.id;
      } catch (err) {
        if (await this.isBlocked(companyId, guestUsername)) throw new DuplicateRow(guestUsername);
        throw err;
      }
    },
    async updateBlockReason(companyId: number, id: number, reason: string): Promise<boolean> {
      return changed(await db.updateTable('blocked_guests').set({ reason }).where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst());
    },
    async unblock(companyId: number, id: number): Promise<boolean> {
      return changed(await db.deleteFrom('blocked_guests').where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst());
    },
  };
}
export type GuestRulesRepository = ReturnType<typeof createGuestRulesRepository>;
