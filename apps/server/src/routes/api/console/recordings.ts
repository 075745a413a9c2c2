import fs from 'node:fs';
import { DataEnvelope } from '@lobby/contracts';
import { Type } from '@sinclair/typebox';
import { consoleUserOf } from '../../../plugins/app/auth.ts';
import type { Services } from '../../../services/index.ts';
import { createRecordingsService, type RecordingsService } from '../../../services/recordings/index.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../errors.ts';

const Recording = Type.Object({
  callId: Type.String(),
  size: Type.Integer({ description: 'bytes' }),
  createdAt: Type.Integer({ description: 'epoch ms' }),
  url: Type.String({ description: 'GET it (console session) for the file' }),
});
const Recordings = Type.Object({ recordings: Type.Array(Recording) });

/**
 * The company's call recordings, one playable file per call (post-processed on the server after the
 * call: janus-pp-rec + ffmpeg). Console users see their own company's only.
 */
export function consoleRecordingRoutes(
  app: App,
  services: Services,
  recordings: RecordingsService = createRecordingsService(services, {
    log: (message, error) => (error ? app.log.warn({ err: error }, message) : app.log.info(message)),
  }),
): RecordingsService {
  const security = [{ consoleSession: [] }];
  app.addHook('onReady', (done) => {
    recordings.start();
    done();
  });
  app.addHook('onClose', (_app, done) => {
    recordings.stop();
    done();
  });

  app.get(
    '/api/console/recordings',
    {
      config: { access: 'console' },
      schema: {
        tags: ['console'],
        summary: "The company's call recordings, newest first (finished calls are processed first)",
        security,
        response: { 200: DataEnvelope(Recordings), ...errors(401) },
      },
    },
    async (request) => {
      const user = consoleUserOf(request);
      await recordings.sweep();
      const list = await recordings.list(user.companyId);
      return {
        data: {
          recordings: list.map((r) => ({ ...r, url: `/api/console/recordings/${encodeURIComponent(r.callId)}/file` })),
        },
      };
    },
  );

  app.get(
    '/api/console/recordings/:callId/file',
    {
      config: { access: 'console' },
      schema: {
        tags: ['console'],
        summary: "One call's recording (Matroska: every participant's audio and video)",
        security,
        params: Type.Object({ callId: Type.String({ maxLength: 140 }) }),
        response: { 200: Type.Unknown({ description: 'the recording (video/x-matroska)' }), ...errors(401, 404) },
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
  return recordings;
}
