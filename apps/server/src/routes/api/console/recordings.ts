import fs from 'node:fs';
import path from 'node:path';
import { DataEnvelope, ServiceQuery, type CallSummary } from '@lobby/contracts';
import { createCallDetailsRepository } from '../../../repositories/callDetails.ts';
import { Type } from '@sinclair/typebox';
import { consoleUserOf } from '../../../plugins/app/auth.ts';
import type { Services } from '../../../services/index.ts';
import { createRecordingsService, type RecordingsService } from '../../../services/recordings/index.ts';
import { createRetentionJob } from '../../../services/recordings/retention.ts';
import { runWhileServing } from '../../../services/periodicJob.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';
import { byteRangeOf } from '../../../http/byteRange.ts';

/** how long a listing waits for the sweep it starts (a just-ended call's mix) before it answers */
const LIST_WAITS_FOR_MIX_MS = 3000;

const Recording = Type.Object({
  callId: Type.String({ description: 'the first call id of the conversation (a call resumed after hold is one recording)' }),
  serviceType: Type.Union([Type.Literal('talk'), Type.Literal('widget')], { description: 'the service the call came through' }),
  size: Type.Integer({ description: 'bytes' }),
  createdAt: Type.Integer({ description: 'epoch ms' }),
  url: Type.String({ description: 'GET it (console session) for the file: MP4 H.264/AAC, one picture, all audio mixed' }),
  tracksUrl: Type.String({ description: "GET it for the raw tracks (Matroska, every participant's streams apart, not re-encoded)" }),
  guestUsername: Type.Union([Type.String(), Type.Null()], { description: 'the guest of the conversation (null: its report is gone)' }),
  guestName: Type.Union([Type.String(), Type.Null()], { description: 'the name the guest gave on the welcome form; the label is guestLabel(guestUsername, guestName)' }),
  agentName: Type.Union([Type.String(), Type.Null()], { description: 'the console user who answered, by name' }),
  talkSeconds: Type.Union([Type.Number(), Type.Null()], { description: "the conversation's talk time across its hold chain (null: not ended)" }),
  rating: Type.Union([Type.Object({ score: Type.Union([Type.Number(), Type.Null()]), comment: Type.Union([Type.String(), Type.Null()]) }), Type.Null()], {
    description: "the guest's rating of the call",
  }),
});
const Recordings = Type.Object({ recordings: Type.Array(Recording) });

/** What a recording's row says of its conversation: who, who answered, how long, the rating. */
function conversationOf(c: CallSummary | undefined) {
  return {
    guestUsername: c?.guestUsername ?? null,
    guestName: c?.guestName ?? null,
    agentName: c?.agentName ?? null,
    talkSeconds: c?.talkSeconds ?? null,
    rating: c?.rating ?? null,
  };
}

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
  const calls = createCallDetailsRepository(services.db.kysely);
  const CallIdParams = Type.Object({ callId: Type.String({ maxLength: 140 }) });
  // Recording retention (docs/operations.md "Recording retention") beside the recordings service whose files
  // it deletes: hourly, and at start (a server that was down past a recording's retention deletes it right away).
  // The deletion log is GET /api/console/recordings/deletions (recordingPrivacy.ts).
  const retention = createRetentionJob(services, recordings, {
    now: services.now,
    log: (message, error) => (error ? app.log.warn({ err: error }, message) : app.log.info(message)),
  });
  // Each by one instance at a time (services/jobLocks.ts); the recordings' root is shared by every instance.
  runWhileServing(app, retention, 3_600_000, { now: true, lock: services.jobLocks.lock('recording retention') });
  app.addHook('onReady', (done) => {
    recordings.start(undefined, services.jobLocks.lock('recordings sweep'));
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
      // a call that just ended is mixed first, but the listing waits for that only a moment: a long call's
      // mix takes minutes on a busy machine, past a proxy's patience; it goes on, and the next listing has it
      await Promise.race([recordings.sweep(), new Promise((resolve) => setTimeout(resolve, LIST_WAITS_FOR_MIX_MS).unref())]);
      const list = await recordings.list(user.companyId);
      const types = await services.repos.callReports.serviceTypes(
        user.companyId,
        list.map((r) => r.callId),
      );
      const conversations = await calls.conversations(
        user.companyId,
        list.map((r) => r.callId),
      );
      return {
        data: {
          recordings: list
            .map((r) => ({
              ...r,
              ...conversationOf(conversations.get(r.callId)),
              serviceType: types.get(r.callId) === 'widget' ? ('widget' as const) : ('talk' as const),
              url: `/api/console/recordings/${encodeURIComponent(r.callId)}/file`,
              tracksUrl: `/api/console/recordings/${encodeURIComponent(r.callId)}/tracks`,
            }))
            .filter((r) => service === 'all' || r.serviceType === service),
        },
      };
    },
  );

  const serve = (variant: 'file' | 'tracks', type: string, summary: string) =>
    app.get(
      `/recordings/:callId/${variant}`,
      {
        schema: {
          tags: ['console'],
          summary,
          security,
          params: CallIdParams,
          response: {
            200: Type.Unknown({ description: `the recording (${type})` }),
            206: Type.Unknown({ description: 'the part of the recording the Range header asked for (Content-Range says which)' }),
            ...errors(400, 401, 403, 404, 416),
          },
        },
      },
      async (request, reply) => {
        const user = consoleUserOf(request);
        const { callId } = request.params;
        const file = variant === 'file' ? await recordings.fileOf(user.companyId, callId) : await recordings.tracksOf(user.companyId, callId);
        if (!file) return fail(reply, 404, 'callId: no recording of this company');
        const stat = await fs.promises.stat(file);
        // a player seeks by asking for byte ranges: one range is answered with its part (docs/api.md)
        const range = byteRangeOf(request.headers.range, stat.size);
        reply.header('accept-ranges', 'bytes');
        if (range.kind === 'unsatisfiable') {
          reply.header('content-range', `bytes */${stat.size}`);
          return fail(reply, 416, `Range: the recording has ${stat.size} bytes`);
        }
        reply.header('content-type', type).header('content-disposition', `attachment; filename="${path.basename(file)}"`);
        if (range.kind === 'part') {
          return reply
            .code(206)
            .header('content-range', `bytes ${range.start}-${range.end}/${stat.size}`)
            .header('content-length', String(range.end - range.start + 1))
            .send(fs.createReadStream(file, { start: range.start, end: range.end }));
        }
        return reply.header('content-length', String(stat.size)).send(fs.createReadStream(file));
      },
    );
  serve('file', 'video/mp4', "One call's recording (MP4 H.264/AAC: every participant's video on one picture, all audio mixed); supervisors and admins");
  serve('tracks', 'video/x-matroska', "One call's raw tracks (Matroska: every participant's audio and video apart, not re-encoded); supervisors and admins");

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
      const why = { by: { id: user.id, name: user.name }, reason: 'manual' as const };
      if (!(await recordings.remove(user.companyId, callId, why))) return fail(reply, 404, 'callId: no recording of this company');
      request.log.info({ callId, by: user.id }, 'recording deleted');
      return { data: { callId, deleted: true as const } };
    },
  );
  return recordings;
}

export default routes({ access: 'console', role: 'supervisor' }, consoleRecordingRoutes);
