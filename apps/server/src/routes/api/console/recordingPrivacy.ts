import { DataEnvelope } from '@lobby/contracts';
import { Type } from '@sinclair/typebox';
import { errors } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';
import { consoleUserOf } from '../../../plugins/app/auth.ts';

const Deletion = Type.Object({
  callId: Type.String({ description: 'the conversation whose recording was deleted' }),
  deletedAt: Type.Integer({ description: 'epoch ms' }),
  deletedBy: Type.Union(
    [
      Type.Object({
        id: Type.Union([Type.Integer(), Type.Null()]),
        name: Type.Union([Type.String(), Type.Null()]),
      }),
      Type.Null(),
    ],
    {
      description: 'the console user who deleted it; null: the retention job',
    },
  ),
  reason: Type.Union([Type.Literal('manual'), Type.Literal('retention')]),
});

/**
 * The deletion log of recordings (docs/security.md "Recording consent", docs/operations.md "Recording
 * retention"): who deleted which recording and when, to a company's admins. The retention job runs beside
 * the recordings service (recordings.ts).
 */
export default routes({ access: 'console', role: 'admin' }, (app, services) => {
  app.get(
    '/recordings/deletions',
    {
      schema: {
        tags: ['console'],
        summary:
          "Who deleted which of the company's recordings and when (by hand, or the retention job), newest first; admins",
        security: [{ consoleSession: [] }],
        response: {
          200: DataEnvelope(Type.Object({ deletions: Type.Array(Deletion) })),
          ...errors(401, 403),
        },
      },
    },
    async (request) => ({
      data: { deletions: await services.repos.recordingPrivacy.deletions(consoleUserOf(request).companyId) },
    }),
  );
});
