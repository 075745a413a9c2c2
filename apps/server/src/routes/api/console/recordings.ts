import fs from 'node:fs';
import { DataEnvelope, ServiceQuery } from '@lobby/contracts';
import { Type } from '@sinclair/typebox';
import { consoleUserOf } from '../../../plugins/app/auth.ts';
import type { Services } from '../../../services/index.ts';
import { createRecordingsService, type RecordingsService } from '../../../services/recordings/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';

const Recording = Type.Object({
  callId: Type.String({ description: 'the first call id of the conversation (a call resumed after hold is one recording)' }),
  serviceType: Type.Union([Type.Literal('talk'), Type.Literal('widget')], { description: 'the service the call came through' }),
  size: Type.Integer({ description: 'bytes' }),
  createdAt: Type.Integer({ description: 'epoch ms' }),
  url: Type.String({ description: 'GET it (console session) for the file' }),
});
const Recordings = Type.Object({ recordings: Type.Array(Recording) });

/**
 * The company's call recordings, one playable file per conversation (post-processed on the server after
 * the call: janus-pp-rec + ffmpeg). Supervisors and admins of the company only (docs/api.md): a
 * recording holds every participant's audio and video.
 */
function consoleRecordingRoutes(
  app: App,
  services: Services,
  recordings: RecordingsService = createRecordingsService(services, {
    log: (message, error) => (error ? app.log.warn({ err: error }, message) : app.log.info(message)),
  }),
): RecordingsService {
  const security = [{ consoleSession: [] }];
  const CallIdParams = Type.Object({ callId: Type.String({ maxLength: 140 }) });
  app.addHook('onReady', (done) => {
    recordings.start();
    done();
  });
  app.addHook('onClose', (_app, done) => {
    recordings.stop();
    done();
  });

  app.get(
    '/recordings',
    {
      schema: {
        tags: ['console'],
        summary: "The company's call recordings, newest first (finished calls are processed first); `service` talk | widget | all; supervisors and admins",
        security,
        querystring: ServiceQuery,
        response: { 200: DataEnvelope(Recordings), ...errors(400, 401, 403) },
      },
    },
    async (request) => {
      const user = consoleUserOf(request);
      const service = request.query.service ?? 'all';
      await recordings.sweep();
      const list = await recordings.list(user.companyId);
      const types = await services.repos.callReports.serviceTypes(
        user.companyId,
        list.map((r) => r.callId),
      );
      return {
        data: {
          recordings: list
            .map((r) => ({
              ...r,
              serviceType: types.get(r.callId) === 'widget' ? ('widget' as const) : ('talk' as const),
              url: `/recordings/${encodeURIComponent(r.callId)}/file`,
            }))
            .filter((r) => service === 'all' || r.serviceType === service),
        },
      };
    },
  );

  app.get(
    '/recordings/:callId/file',
    {
      schema: {
        tags: ['console'],
        summary: "One call's recording (Matroska: every participant's audio and video); supervisors and admins",
        security,
        params: CallIdParams,
        response: { 200: Type.Unknown({ description: 'the recording (video/x-matroska)' }), ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const user = consoleUserOf(request);
      const file = await recordings.fileOf(user.companyId, request.params.callId);
      if (!file) return fail(reply, 404, 'callId: no recording of this company');
      const stat = await fs.promises.stat(file);
      return reply
        .header('content-type', 'video/x-matroska')
        .header('content-length', String(stat.size))
        .header('content-disposition', `attachment; filename="${request.params.callId}.mkv"`)
        .send(fs.createReadStream(file));
    },
  );

  app.delete(
    '/recordings/:callId',
    {
      schema: {
        tags: ['console'],
        summary: "Delete one call's recording from disk (the playable file and the raw .mjr of every call id of the conversation); supervisors and admins",
        security,
        params: CallIdParams,
        response: { 200: DataEnvelope(Type.Object({ callId: Type.String(), deleted: Type.Literal(true) })), ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const user = consoleUserOf(request);
      const { callId } = request.params;
      if (!(await recordings.remove(user.companyId, callId))) return fail(reply, 404, 'callId: no recording of this company');
      request.log.info({ callId, by: user.id }, 'recording deleted');
      return { data: { callId, deleted: true as const } };
    },
  );
  return recordings;
}

export default routes({ access: 'console', role: 'supervisor' }, consoleRecordingRoutes);
