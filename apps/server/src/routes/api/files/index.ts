import { FileIdParam } from '@lobby/contracts';
import { Type } from '@sinclair/typebox';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { uploadedBytes } from '../../../services/uploadedFiles.ts';
import { routes } from '../../../http/routes.ts';

/**
 * GET /api/files/{id}: an uploaded file, to its guest and the agents of its company only. Served with the
 * sniffed type, `nosniff` and a sandboxing CSP; anything but an image is an attachment, so nothing
 * uploaded ever renders as a page of our origin.
 */
function fileRoutes(app: App, services: Services): void {
  app.get(
    '/:id',
    {
      schema: {
        tags: ['files'],
        summary: 'Download an uploaded file (its guest, or a console user of its company)',
        security: [{ guestBearer: [] }, { consoleSession: [] }],
        params: FileIdParam,
        response: { 200: Type.Unknown({ description: 'the file (png, jpeg, webp inline; pdf as an attachment)' }), ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const file = await services.repos.uploads.byId(request.params.id);
      if (!file) return fail(reply, 404, 'id: no such file');
      const guest = request.guest;
      const user = request.consoleUser;
      const allowed = guest
        ? guest.companyId === file.company_id && guest.username === file.guest_username
        : user !== null && user.companyId === file.company_id;
      if (!allowed) return fail(reply, 403, 'id: not your file');
      const bytes = await uploadedBytes(services, file);
      if (!bytes) return fail(reply, 404, 'id: the file is gone');
      const image = file.mime.startsWith('image/');
      const name = file.original_name.replace(/[^A-Za-z0-9._-]/g, '_');
      return reply
        .header('content-type', file.mime)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, max-age=3600')
        .header('content-disposition', `${image ? 'inline' : 'attachment'}; filename="${name}"`)
        .send(bytes);
    },
  );
}

export default routes({ access: 'guestOrConsole' }, fileRoutes);
