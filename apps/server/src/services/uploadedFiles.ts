/**
 * The bytes of an uploaded file (GET /api/files/{id}, GET /api/profile-images/{id}): from the database,
 * where every instance finds them (repositories/uploads.ts), else from the data dir of a server that kept
 * them on disk before (files uploaded earlier). Null when neither has them.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { UploadsTable } from '../db/schema.ts';
import type { Services } from './index.ts';

export async function uploadedBytes(services: Pick<Services, 'repos' | 'config'>, file: Pick<UploadsTable, 'id' | 'company_id'>): Promise<Buffer | null> {
  const stored = await services.repos.uploads.bytes(file.id);
  if (stored) return stored;
  return fs.readFile(path.join(services.config.dataDir, 'uploads', String(file.company_id), file.id)).catch(() => null);
}
