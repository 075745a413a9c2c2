import { FileIdParam } from '@lobby/contracts';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { uploadedBytes } from '../../../services/uploadedFiles.ts';
import { routes } from '../../../http/routes.ts';

/**
 * GET /api/profile-images/{id}: a console user's picture, to anyone (the guest shows it as the agent's
 * avatar in an <img>, which carries no token). Only an upload that is some user's picture now is served,
 * by its unguessable id; as an image with `nosniff` and a sandboxing CSP, like GET /api/files/{id}.
 */
function profileImageRoutes(app: App, services: Services): void {
  app.get(
    '/:id',
    {
      schema: {
        tags: ['files'],
        summary: "A console user's picture (the agent's avatar the guest sees); public, by its id",
        params: FileIdParam,
        response: { 200: Type.Unknown({ description: 'the image (png, jpeg or webp)' }), ...errors(400, 404) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const file = await services.repos.uploads.byId(id);
      if (!file || !file.mime.startsWith('image/') || !(await services.repos.users.isProfileImage(id))) return fail(reply, 404, 'id: no such picture');
      const bytes = await uploadedBytes(services, file);
      if (!bytes) return fail(reply, 404, 'id: the picture is gone');
      return reply
        .header('content-type', file.mime)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'public, max-age=300')
        .send(bytes);
    },
  );
}

export default routes({ access: 'public' }, profileImageRoutes);
