import type { Kysely } from 'kysely';
import type { Database, UploadsTable } from '../db/schema.ts';

/** Metadata of uploaded files; the bytes live under `<data dir>/uploads/<company>/<id>`. */
export function createUploadsRepository(db: Kysely<Database>) {
  return {
    async add(u: UploadsTable): Promise<void> {
      await db.insertInto('uploads').values(u).execute();
    },
    async byId(id: string): Promise<UploadsTable | null> {
      return (await db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
    },
  };
}
