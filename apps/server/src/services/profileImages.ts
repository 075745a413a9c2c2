/**
 * A console user's picture (peers `profileImageUrl`): one of the company's uploaded images
 * (POST /api/upload/image sniffs its type), at most PROFILE_IMAGE_MAX_BYTES, shown to guests as the
 * agent's avatar. The guest reads it without a token (an <img>): GET /api/profile-images/{id} serves an
 * upload only while it is some user's picture, by its unguessable id.
 */
import { PROFILE_IMAGE_MAX_BYTES, UPLOAD_TYPES } from '@lobby/contracts';
import type { Services } from './index.ts';
import { profileImageUrl } from './consoleUsers.ts';

export type ProfileImageResult = { ok: true; profileImageUrl: string | null } | { ok: false; status: 400 | 404; message: string };

/** Sets (or, with null, clears) the picture of a user of `companyId`; checks the upload is a small image of that company. */
export async function setProfileImage(services: Pick<Services, 'repos'>, companyId: number, userId: number, uploadId: string | null): Promise<ProfileImageResult> {
  if (uploadId !== null) {
    const upload = await services.repos.uploads.byId(uploadId);
    if (!upload || upload.company_id !== companyId) return { ok: false, status: 404, message: 'uploadId: no such file in your company' };
    if (upload.type !== 'image' || !(UPLOAD_TYPES.image.mimes as readonly string[]).includes(upload.mime)) {
      return { ok: false, status: 400, message: `uploadId: the picture must be an image (${UPLOAD_TYPES.image.mimes.join(', ')})` };
    }
    if (upload.size > PROFILE_IMAGE_MAX_BYTES) return { ok: false, status: 400, message: `uploadId: the picture is larger than ${PROFILE_IMAGE_MAX_BYTES} bytes` };
  }
  await services.repos.users.setProfileImage(userId, uploadId);
  return { ok: true, profileImageUrl: uploadId === null ? null : profileImageUrl(uploadId) };
}
