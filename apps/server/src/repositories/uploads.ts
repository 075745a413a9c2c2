import type { Kysely } from 'kysely';
import type { Database, UploadsTable } from '../db/schema.ts';

/**
 * Uploaded files: their metadata (uploads) and their bytes (upload_bytes, ≤ 10 MB each), both in the
 * database so that every server instance serves every file (docs/operations.md "Shared state: jobs, limits
 * and files"). Files uploaded before that stay under `<data dir>/uploads/<company>/<id>` (routes/api/files).
 */
export function createUploadsRepository(db: Kysely<Database>) {
  return {
    async add(u: UploadsTable, bytes: Buffer): Promise<void> {
      await db.transaction().execute(async (tx) => {
        await tx.insertInto('uploads').values(u).execute();
        await tx.insertInto('upload_bytes').values({ upload_id: u.id, bytes }).execute();
      });
    },
    async byId(id: string): Promise<UploadsTable | null> {
      return (await db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
    },
    /** the file's bytes, or null when it has none in the database (uploaded before they were kept there) */
    async bytes(id: string): Promise<Buffer | null> {
      const row = await db.selectFrom('upload_bytes').select('bytes').where('upload_id', '=', id).executeTakeFirst();
      return row ? Buffer.from(row.bytes) : null;
    },
  };
}
