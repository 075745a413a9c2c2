import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import multipart from '@fastify/multipart';
import { DataEnvelope, UPLOAD_TYPES, UploadForm, UploadTypeParam, Uploaded } from '@lobby/contracts';
import type { UploadType } from '@lobby/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../../services/index.ts';
import { SNIFF_BYTES, sniffMime } from '../../../services/sniff.ts';
import type { App } from '../../../typebox.ts';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';

const MAX_BYTES = Math.max(...Object.values(UPLOAD_TYPES).map((t) => t.maxBytes));
const PART_LIMITS = { files: 1, fields: 8, fieldSize: 1024, parts: 10, headerPairs: 50 };

interface Received {
  tmp: string;
  size: number;
  head: Buffer;
  filename: string;
  truncated: boolean;
}

/** Stream the one file part to a temp file, keeping its first bytes for sniffing. */
async function receiveFile(stream: NodeJS.ReadableStream & { truncated?: boolean }, tmp: string, filename: string): Promise<Received> {
  let size = 0;
  let head = Buffer.alloc(0);
  const tap = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      size += chunk.length;
      if (head.length < SNIFF_BYTES) head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
      cb(null, chunk);
    },
  });
  await pipeline(stream, tap, fs.createWriteStream(tmp, { mode: 0o600 }));
  return { tmp, size, head, filename, truncated: stream.truncated === true };
}

/**
 * POST /api/upload/{type} (docs/api.md): multipart with the file under the field named {type}, companyId and
 * forChat=true. The type's size limit applies and the content must be one of its formats (sniffed).
 * A console user may name the guest the file is for (`guestUsername`), so that guest can read it too.
 */
async function uploadRoutes(app: App, services: Services): Promise<void> {
  const { config, repos } = services;
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { ...PART_LIMITS, fileSize: MAX_BYTES } });
    (scope as App).post(
      '/:type',
      {
        config: {
          rateLimit: { max: config.uploadRateLimit, timeWindow: '1 minute' },
          // The parts are read by the handler (streamed, sniffed), not by a body schema: describe them in the document only.
          swaggerTransform: ({ schema, url }) => ({ schema: { ...schema, body: UploadForm }, url }),
        },
        schema: {
          tags: ['files'],
          summary: 'Upload a chat file: image (png, jpeg, webp; 5 MB) or document (pdf; 10 MB), checked by content',
          consumes: ['multipart/form-data'],
          security: [{ guestBearer: [] }, { consoleSession: [] }],
          params: UploadTypeParam,
          response: { 201: DataEnvelope(Uploaded), ...errors(400, 401, 403, 404, 413, 429) },
        },
      },
      async (request, reply) => handleUpload(services, request as FastifyRequest<{ Params: { type: UploadType } }>, reply),
    );
  });

  async function handleUpload(s: Services, request: FastifyRequest<{ Params: { type: UploadType } }>, reply: FastifyReply) {
    const type = request.params.type;
    const spec = UPLOAD_TYPES[type];
    if (!request.isMultipart()) return fail(reply, 400, 'body: must be multipart/form-data');
    const fields: Record<string, string> = {};
    const tmpDir = path.join(s.config.dataDir, 'uploads', 'tmp');
    fs.mkdirSync(tmpDir, { recursive: true });
    let file: Received | null = null;
    const cleanup = () => {
      if (file) fs.rmSync(file.tmp, { force: true });
    };
    try {
      for await (const part of request.parts({ limits: { ...PART_LIMITS, fileSize: spec.maxBytes } })) {
        if (part.type === 'field') {
          fields[part.fieldname] = typeof part.value === 'string' ? part.value : '';
          continue;
        }
        if (part.fieldname !== type || file) {
          part.file.resume();
          return await fail(reply, 400, `${part.fieldname}: the file must be sent once, under the field named ${type}`);
        }
        file = await receiveFile(part.file, path.join(tmpDir, crypto.randomBytes(12).toString('hex')), part.filename);
      }
    } catch (err) {
      cleanup();
      const code = (err as { statusCode?: number }).statusCode;
      if (code === 413) return fail(reply, 413, `${type}: larger than ${spec.maxBytes} bytes`);
      // File-system failures (ENOSPC, EACCES, …) are ours; anything else while parsing (no boundary, cut-off
      // parts, too many fields) is a malformed request.
      const sysCode = (err as { code?: unknown }).code;
      if (typeof sysCode === 'string' && /^E[A-Z]+$/.test(sysCode)) throw err;
      return fail(reply, 400, `body: malformed multipart (${(err as Error).message})`);
    }
    try {
      if (!file) return await fail(reply, 400, `${type}: no file under the field named ${type}`);
      if (file.truncated || file.size > spec.maxBytes) return await fail(reply, 413, `${type}: larger than ${spec.maxBytes} bytes`);
      if (file.size === 0) return await fail(reply, 400, `${type}: the file is empty`);
      const mime = sniffMime(file.head);
      if (!mime || !(spec.mimes as readonly string[]).includes(mime)) {
        return await fail(reply, 400, `${type}: the content is not ${spec.mimes.join(', ')}`);
      }
      if (fields.forChat !== undefined && fields.forChat !== 'true' && fields.forChat !== 'false') {
        return await fail(reply, 400, 'forChat: must be true or false');
      }
      const companyId = Number(fields.companyId);
      if (!/^[1-9][0-9]{0,9}$/.test(fields.companyId ?? '')) return await fail(reply, 400, 'companyId: must be a company id');

      let guestUsername: string | null = null;
      let userId: number | null = null;
      if (request.guest) {
        if (companyId !== request.guest.companyId) return await fail(reply, 403, 'companyId: not the company of your access_token');
        guestUsername = request.guest.username;
      } else if (request.consoleUser) {
        if (companyId !== request.consoleUser.companyId) return await fail(reply, 403, 'companyId: not your company');
        userId = request.consoleUser.id;
        if (fields.guestUsername !== undefined) {
          const g = await repos.guests.byUsername(fields.guestUsername);
          if (!g || g.companyId !== companyId) return await fail(reply, 404, 'guestUsername: no such guest in your company');
          guestUsername = g.username;
        }
      }
      const originalName = path.basename(file.filename).slice(0, 200) || type;
      const id = crypto.randomBytes(18).toString('base64url');
      // into the database, so that every server instance serves it (repositories/uploads.ts)
      const bytes = await fs.promises.readFile(file.tmp);
      await repos.uploads.add(
        {
          id,
          company_id: companyId,
          guest_username: guestUsername,
          user_id: userId,
          type,
          mime,
          size: bytes.length,
          original_name: originalName,
          created_at: s.now(),
        },
        bytes,
      );
      return await reply.code(201).send({ data: { fileUrl: `/api/files/${id}` } });
    } finally {
      cleanup();
    }
  }
}

export default routes({ access: 'guestOrConsole' }, uploadRoutes);
