import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against the schema as it was */

/**
 * users.profile_image_id: a console user's picture (peers `profileImageUrl`), the id of one of
 * the company's uploaded images (uploads.id, random and unguessable). The guest sees it as the agent's
 * avatar; null: the agent's initial. Set by the user (PUT /api/console/profile-image) or an admin
 * (PUT /api/admin/users/{id}/profile-image).
 */
export function profileImages() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('users').addColumn('profile_image_id', 'text').execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('users').dropColumn('profile_image_id').execute();
    },
  };
}
