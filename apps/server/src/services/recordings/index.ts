/**
 * The recordings service: finds calls whose recording is complete, post-processes them into one file
 * per call (postprocess.ts) and lists a company's recordings.
 *
 * Root: $LOBBY_RECORDINGS_DIR, else {LOBBY_DATA_DIR}/recordings. The apps put it in front of the
 * SPEC.md §7 filename they hand to Janus (GET /api/company/details answers it as recordingRoot); Janus
 * runs as the same user and writes where the filename says.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Services } from '../index.ts';
import { DEFAULT_BINS, callOutputFile, mjrFiles, processCallFolder, type Bins } from './postprocess.ts';

export function recordingsRoot(config: { dataDir: string }, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.LOBBY_RECORDINGS_DIR || path.join(config.dataDir, 'recordings'));
}

export interface RecordingEntry {
  callId: string;
  /** bytes */
  size: number;
  /** epoch ms the file was made */
  createdAt: number;
}

/** A call id as the engine makes it (callId.ts) — the only folder names we ever touch. */
const CALL_ID = /^[a-z0-9]{1,64}--[a-z0-9_-]{1,64}$/i;

export function isCallId(value: string): boolean {
  return CALL_ID.test(value);
}

export interface RecordingsService {
  root: string;
  /** Processes every finished call that has .mjr files and no output yet; resolves when done. */
  sweep(): Promise<void>;
  list(companyId: number): Promise<RecordingEntry[]>;
  /** The file of one call of the company, or null. */
  fileOf(companyId: number, callId: string): Promise<string | null>;
  start(intervalMs?: number): void;
  stop(): void;
}

/** How long a call's files must have stayed unchanged before they count as complete. */
const QUIET_MS = 3000;

export function createRecordingsService(
  services: Pick<Services, 'config' | 'repos' | 'now'>,
  options: { root?: string; bins?: Bins; log?: (message: string, error?: unknown) => void } = {},
): RecordingsService {
  const root = options.root ?? recordingsRoot(services.config);
  const bins = options.bins ?? DEFAULT_BINS;
  const log = options.log ?? (() => undefined);
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const failed = new Set<string>();

  async function callDirs(): Promise<{ companyId: number; callId: string; dir: string }[]> {
    const out: { companyId: number; callId: string; dir: string }[] = [];
    for (const company of await fs.readdir(root).catch(() => [] as string[])) {
      if (!/^\d+$/.test(company)) continue;
      const companyDir = path.join(root, company);
      for (const callId of await fs.readdir(companyDir).catch(() => [] as string[])) {
        if (isCallId(callId)) out.push({ companyId: Number(company), callId, dir: path.join(companyDir, callId) });
      }
    }
    return out;
  }

  async function ready(dir: string, callId: string, companyId: number): Promise<boolean> {
    if (failed.has(dir)) return false;
    const files = await mjrFiles(dir);
    if (!files.length) return false;
    const output = await fs.stat(callOutputFile(dir, callId)).catch(() => null);
    const stats = await Promise.all(files.map((f) => fs.stat(f)));
    const newest = Math.max(...stats.map((s) => s.mtimeMs));
    if (output && output.mtimeMs >= newest) return false; // done, and nothing new since
    if (Date.now() - newest < QUIET_MS) return false;
    // complete once the call has ended (the report says so); a folder without a report of this
    // company is never processed
    const report = await services.repos.callReports.byCallId(callId);
    if (!report || Number(report.company_id) !== companyId) return false;
    return report.call_ended_at !== null && report.call_ended_at !== undefined;
  }

  async function sweepOnce(): Promise<void> {
    for (const { companyId, callId, dir } of await callDirs()) {
      try {
        if (!(await ready(dir, callId, companyId))) continue;
        const file = await processCallFolder(dir, callId, bins);
        log(`recording of ${callId}: ${file ?? 'nothing playable'}`);
        if (!file) failed.add(dir);
      } catch (error) {
        failed.add(dir);
        log(`recording of ${callId} failed`, error);
      }
    }
  }

  const service: RecordingsService = {
    root,
    sweep() {
      running ??= sweepOnce().finally(() => {
        running = null;
      });
      return running;
    },
    async list(companyId) {
      const companyDir = path.join(root, String(companyId));
      const out: RecordingEntry[] = [];
      for (const callId of await fs.readdir(companyDir).catch(() => [] as string[])) {
        if (!isCallId(callId)) continue;
        const stat = await fs.stat(callOutputFile(path.join(companyDir, callId), callId)).catch(() => null);
        if (stat?.isFile()) out.push({ callId, size: stat.size, createdAt: Math.round(stat.mtimeMs) });
      }
      return out.sort((a, b) => b.createdAt - a.createdAt);
    },
    async fileOf(companyId, callId) {
      if (!isCallId(callId)) return null;
      const file = callOutputFile(path.join(root, String(companyId), callId), callId);
      const stat = await fs.stat(file).catch(() => null);
      return stat?.isFile() ? file : null;
    },
    start(intervalMs = 5000) {
      if (timer) return;
      timer = setInterval(() => void service.sweep().catch(() => undefined), intervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
  return service;
}
