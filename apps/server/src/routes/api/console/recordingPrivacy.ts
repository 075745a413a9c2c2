import { DataEnvelope } from '@lobby/contracts';
import { Type } from '@sinclair/typebox';
import { consoleUserOf } from '../../../plugins/app/auth.ts';
import type { Services } from '../../../services/index.ts';
import type { RecordingsService } from '../../../services/recordings/index.ts';
import { createRetentionJob, type RetentionJob } from '../../../services/recordings/retention.ts';
import { runWhileServing } from '../../../services/periodicJob.ts';
import { requireRole } from '../../../services/roles.ts';
import type { App } from '../../../typebox.ts';
import { errors } from '../../errors.ts';

const Deletion = Type.Object({
  callId: Type.String({ description: 'the conversation whose recording was deleted' }),
  deletedAt: Type.Integer({ description: 'epoch ms' }),
  deletedBy: Type.Union([Type.Object({ id: Type.Union([Type.Integer(), Type.Null()]), name: Type.Union([Type.String(), Type.Null()]) }), Type.Null()], {
    description: 'the console user who deleted it; null: the retention job',
  }),
  reason: Type.Union([Type.Literal('manual'), Type.Literal('retention')]),
});

/**
 * Recording retention and the deletion log (docs/security.md "Recording consent", docs/operations.md
 * "Recording retention"): runs the retention job beside the recordings service, and lists to a
 * company's admins who deleted which recording and when.
 */
export function recordingPrivacyRoutes(app: App, services: Services, recordings: RecordingsService): RetentionJob {
  const retention = createRetentionJob(services, recordings, {
    now: services.now,
    log: (message, error) => (error ? app.log.warn({ err: error }, message) : app.log.info(message)),
  });
  // hourly, and at start: a server that was down past a recording's retention deletes it right away
  runWhileServing(app, retention, 3_600_000, { now: true });

  app.get(
    '/api/console/recordings/deletions',
    {
      config: { access: 'console' },
      preValidation: requireRole('admin'),
      schema: {
        tags: ['console'],
        summary: "Who deleted which of the company's recordings and when (by hand, or the retention job), newest first; admins",
        security: [{ consoleSession: [] }],
        response: { 200: DataEnvelope(Type.Object({ deletions: Type.Array(Deletion) })), ...errors(401, 403) },
      },
    },
    async (request) => ({ data: { deletions: await services.repos.recordingPrivacy.deletions(consoleUserOf(request).companyId) } }),
  );
  return retention;
}
