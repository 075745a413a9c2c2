/**
 * The recordings service: finds calls whose recording is complete, post-processes them into one file
 * per call (postprocess.ts), lists a company's recordings and deletes them.
 *
 * Root: $LOBBY_RECORDINGS_DIR, else {LOBBY_DATA_DIR}/recordings; it never leaves the server. The server
 * decides every name (the browsers know none): each call's Janus room is created with rec_dir
 * {root}/{companyId}/{callId} (media/mediaRooms.ts), and the Janus gate gives each publisher's configure
 * its file name (docs/protocol.md "Recording", media/recordingName.ts). Janus runs as the same user and
 * writes there: one folder per call id.
 *
 * One recording per conversation: a call put on hold and resumed continues under a new call id (a new
 * Janus room, so a new folder), linked by POST /call-report/hold-call. The folders of such a chain are
 * muxed together into the folder of its first call, {originCallId}/{originCallId}.mp4 (one picture, one mixed sound, postprocess.ts), so the console
 * lists the conversation once, as the reports count it once; {originCallId}.tracks.mkv keeps the raw tracks.
 *
 * When is a recording complete? When the chain's last call has ended (its report says so), or, for a
 * guest whose browser died and never reported the end, when none of the chain's files changed for
 * `idleMs` ($LOBBY_RECORDING_IDLE_SECONDS, default 600). A chain that grows afterwards (a long hold) is
 * processed again once it has new media. Sweeps run every few seconds from the server's start, so
 * calls left over from before a restart are processed too.
 *
 * Several server instances share one root (LOBBY_RECORDINGS_DIR, mounted by every instance: docs/operations.md
 * "Shared state: jobs, limits and files"): the sweep runs on one at a time (`start`'s lock), each chain is
 * mixed under its claim (mixClaims.ts), and a deletion takes the chain's folders by renaming them first, so
 * that only the instance whose rename succeeded deletes and logs it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Services } from '../index.ts';
import type { JobLock } from '../jobLocks.ts';
import { createPeriodicJob, type PeriodicJob } from '../periodicJob.ts';
import { createMixClaims } from './mixClaims.ts';
import { DEFAULT_BINS, callOutputFile, callTracksFile, mjrFiles, processCallFolders, type Bins } from './postprocess.ts';

export function recordingsRoot(config: { dataDir: string }, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.LOBBY_RECORDINGS_DIR || path.join(config.dataDir, 'recordings'));
}

export function recordingIdleMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = Number(env.LOBBY_RECORDING_IDLE_SECONDS);
  return Number.isFinite(raw) && raw > 0 ? raw * 1000 : 600_000;
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
  /** The companies that have a recordings folder. */
  companies(): Promise<number[]>;
  /** The file of one call of the company, or null. */
  fileOf(companyId: number, callId: string): Promise<string | null>;
  /** The raw tracks of one call of the company (every publisher apart), or null. */
  tracksOf(companyId: number, callId: string): Promise<string | null>;
  /**
   * Removes the recording of one conversation of the company from disk: the output and the raw files of
   * every call of its chain, and logs who deleted it and when (recording_deletions). False when the
   * company has no recording of that call.
   */
  remove(companyId: number, callId: string, why: Deletion): Promise<boolean>;
  /** Newest modification (ms) of any file of one call folder of the company; null when empty or gone. */
  lastWritten(companyId: number, callId: string): Promise<number | null>;
  /** The call ids of every call folder of the company, processed or not (raw `.mjr` files only, say). */
  folders(companyId: number): Promise<string[]>;
  /**
   * Removes every folder of the conversation of `callId` (each call id of its chain), whatever is in it —
   * raw files of a call never mixed included — and logs it like remove(). False when there was no folder.
   */
  purge(companyId: number, callId: string, why: Deletion): Promise<boolean>;
  /** sweeps every `intervalMs` (and right away), while this instance holds `lock` when one is given */
  start(intervalMs?: number, lock?: JobLock): void;
  stop(): void;
}

/** Who deletes a recording: a console user by hand, or the retention job (by nobody). */
export interface Deletion {
  by: { id: number; name: string } | null;
  reason: 'manual' | 'retention';
}

/** How long a call's files must have stayed unchanged before they count as complete. */
const QUIET_MS = 3000;

/** How long a deletion waits for another instance's mix of the same chain before it deletes anyway. */
const DELETE_WAIT_MS = 120_000;

interface CallDir {
  companyId: number;
  callId: string;
  dir: string;
}

type Report = NonNullable<Awaited<ReturnType<Services['repos']['callReports']['byCallId']>>>;

export function createRecordingsService(
  services: Pick<Services, 'config' | 'repos' | 'now' | 'db'>,
  options: { root?: string; bins?: Bins; idleMs?: number; log?: (message: string, error?: unknown) => void } = {},
): RecordingsService {
  const root = options.root ?? recordingsRoot(services.config);
  const bins = options.bins ?? DEFAULT_BINS;
  const idleMs = options.idleMs ?? recordingIdleMs();
  const log = options.log ?? (() => undefined);
  let running: Promise<void> | null = null;
  let sweepJob: PeriodicJob<void> | null = null;
  const claims = createMixClaims(services.db.kysely);
  /** this service's name on its claims: one per instance */
  const owner = crypto.randomUUID();
  const companyDir = (companyId: number) => path.join(root, String(companyId));

  async function callDirs(): Promise<CallDir[]> {
    const out: CallDir[] = [];
    for (const company of await fs.readdir(root).catch(() => [] as string[])) {
      if (!/^\d+$/.test(company)) continue;
      const dir = companyDir(Number(company));
      for (const callId of await fs.readdir(dir).catch(() => [] as string[])) {
        if (isCallId(callId)) out.push({ companyId: Number(company), callId, dir: path.join(dir, callId) });
      }
    }
    return out;
  }

  /** The chain a report belongs to: the first call's id (itself when never held). */
  const chainOf = (report: Report) => report.origin_call_id ?? report.call_id;

  /** Every report of a chain, oldest first. */
  async function chainReports(companyId: number, originCallId: string): Promise<Report[]> {
    const reports = await services.repos.callReports.chain(companyId, originCallId);
    return reports.sort((a, b) => Number(a.created_at) - Number(b.created_at));
  }

  /** Newest modification (ms) of these files, or null when none is there. */
  async function newestOf(files: string[]): Promise<number | null> {
    const stats = await Promise.all(files.map((f) => fs.stat(f).catch(() => null)));
    const times = stats.filter((s) => s !== null).map((s) => s.mtimeMs);
    return times.length ? Math.max(...times) : null;
  }

  /** Newest modification (ms) of the chain's raw files, or null when it has none. */
  async function newestRaw(dirs: string[]): Promise<number | null> {
    return newestOf((await Promise.all(dirs.map((d) => mjrFiles(d)))).flat());
  }

  async function processChain(companyId: number, originCallId: string, reports: Report[]): Promise<void> {
    const dirs = reports.map((r) => path.join(companyDir(companyId), r.call_id));
    const outDir = path.join(companyDir(companyId), originCallId);
    const newest = await newestRaw(dirs);
    if (newest === null) return;
    const done = async () => {
      const output = await fs.stat(callOutputFile(outDir, originCallId)).catch(() => null);
      return output !== null && output.mtimeMs >= newest; // done, and nothing new since
    };
    if (await done()) return;
    const quietFor = Date.now() - newest;
    if (quietFor < QUIET_MS) return;
    const last = reports.at(-1);
    const ended = last?.call_ended_at !== null && last?.call_ended_at !== undefined;
    // the report never ended (the guest's browser died): Janus stopped writing long ago
    if (!ended && quietFor < idleMs) return;
    // one instance mixes a chain; what it finds once it holds the claim is what counts (another may have
    // mixed it, or failed on these very files, meanwhile)
    if (!(await claims.claim(companyId, originCallId, owner, services.now()))) return;
    try {
      if (((await claims.failedNewest(companyId, originCallId)) ?? -1) >= newest || (await done())) return;
      await mix(companyId, originCallId, reports, dirs, outDir, newest);
    } finally {
      await claims.release(companyId, originCallId, owner);
    }
  }

  async function mix(companyId: number, originCallId: string, reports: Report[], dirs: string[], outDir: string, newest: number): Promise<void> {
    const last = reports.at(-1);
    try {
      // the answer as the call's report counts it (the guest saw the agent), else as the server saw it
      // (an agent took the media grant): a guest that died before saying so still has a call window
      const first = reports.find((r) => r.call_answered_at !== null || r.agent_answered_at !== null);
      const call = { answeredAt: first ? (first.call_answered_at ?? first.agent_answered_at) : null, endedAt: last?.call_ended_at ?? null };
      const file = await processCallFolders(dirs, outDir, originCallId, bins, call);
      log(`recording of ${originCallId} (${reports.length} call id${reports.length > 1 ? 's' : ''}): ${file ?? 'nothing playable'}`);
      await claims.setFailedNewest(companyId, originCallId, file ? null : newest);
    } catch (error) {
      await claims.setFailedNewest(companyId, originCallId, newest);
      log(`recording of ${originCallId} failed`, error);
    }
  }

  async function sweepOnce(): Promise<void> {
    const seen = new Set<string>();
    for (const { companyId, callId } of await callDirs()) {
      try {
        // a folder without a report of this company is never processed
        const report = await services.repos.callReports.byCallId(callId);
        if (!report || Number(report.company_id) !== companyId) continue;
        const origin = chainOf(report);
        const key = `${companyId}/${origin}`;
        if (seen.has(key)) continue;
        seen.add(key);
        // (the first call of a chain has no origin_call_id itself: always ask for the chain)
        await processChain(companyId, origin, await chainReports(companyId, origin));
      } catch (error) {
        log(`recording of ${callId}: sweep failed`, error);
      }
    }
    await claims.prune(services.now());
  }

  async function existing(companyId: number, callId: string, name: (dir: string, callId: string) => string) {
    if (!isCallId(callId)) return null;
    const file = name(path.join(companyDir(companyId), callId), callId);
    const stat = await fs.stat(file).catch(() => null);
    return stat?.isFile() ? file : null;
  }

  /** Removes the folders of every call id of the chain of `callId`; false when none existed. */
  async function removeChain(companyId: number, callId: string, why: Deletion): Promise<boolean> {
    // wait for a sweep in progress, so that it cannot write the file again behind our back: this
    // instance's, and another's mix of this chain (its claim)
    await running?.catch(() => undefined);
    const reports = await services.repos.callReports.chain(companyId, callId);
    // (every caller names the conversation by its first call: the key its mixes are claimed under)
    const claimed = await claimWithin(companyId, callId, DELETE_WAIT_MS);
    try {
      const calls = new Set([callId, ...reports.map((r) => r.call_id)]);
      let removed = false;
      for (const id of calls) {
        if (!isCallId(id)) continue;
        const dir = path.join(companyDir(companyId), id);
        // renamed first: of two instances deleting at once, only the one whose rename succeeds deletes (and logs)
        const doomed = path.join(companyDir(companyId), `.deleting-${id}-${crypto.randomBytes(6).toString('hex')}`);
        const taken = await fs.rename(dir, doomed).then(
          () => true,
          () => false,
        );
        if (!taken) continue;
        await fs.rm(doomed, { recursive: true, force: true });
        removed = true;
      }
      if (removed) await services.repos.recordingPrivacy.logDeletion({ companyId, callId, at: services.now(), by: why.by, reason: why.reason });
      return removed;
    } finally {
      // the chain is gone: so is its row (a failure it remembered is of files that no longer exist)
      if (claimed) await claims.forget(companyId, callId, owner);
    }
  }

  /** Takes the chain's claim, waiting up to `waitMs` for another instance's mix to end; false when it did not. */
  async function claimWithin(companyId: number, originCallId: string, waitMs: number): Promise<boolean> {
    const until = Date.now() + waitMs;
    for (;;) {
      if (await claims.claim(companyId, originCallId, owner, services.now())) return true;
      if (Date.now() >= until) {
        log(`recording of ${originCallId}: deleted while another instance still mixes it`);
        return false;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
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
      const out: RecordingEntry[] = [];
      for (const callId of await fs.readdir(companyDir(companyId)).catch(() => [] as string[])) {
        if (!isCallId(callId)) continue;
        const stat = await fs.stat(callOutputFile(path.join(companyDir(companyId), callId), callId)).catch(() => null);
        // only recordings with content: a file is made only from MIN_SECONDS of media on, never empty
        if (stat?.isFile() && stat.size > 0) out.push({ callId, size: stat.size, createdAt: Math.round(stat.mtimeMs) });
      }
      return out.sort((a, b) => b.createdAt - a.createdAt);
    },
    async fileOf(companyId, callId) {
      return existing(companyId, callId, callOutputFile);
    },
    async tracksOf(companyId, callId) {
      return existing(companyId, callId, callTracksFile);
    },
    async companies() {
      const names = await fs.readdir(root).catch(() => [] as string[]);
      return names.filter((n) => /^\d+$/.test(n)).map(Number);
    },
    async remove(companyId, callId, why) {
      if (!(await service.fileOf(companyId, callId))) return false;
      return removeChain(companyId, callId, why);
    },
    async lastWritten(companyId, callId) {
      if (!isCallId(callId)) return null;
      const dir = path.join(companyDir(companyId), callId);
      const names = await fs.readdir(dir).catch(() => [] as string[]);
      return newestOf(names.map((n) => path.join(dir, n)));
    },
    async folders(companyId) {
      const names = await fs.readdir(companyDir(companyId), { withFileTypes: true }).catch(() => []);
      return names.filter((d) => d.isDirectory() && isCallId(d.name)).map((d) => d.name);
    },
    async purge(companyId, callId, why) {
      if (!isCallId(callId)) return false;
      return removeChain(companyId, callId, why);
    },
    start(intervalMs = 5000, lock) {
      if (sweepJob) return;
      sweepJob = createPeriodicJob('recordings sweep', () => service.sweep(), log);
      // right away: calls left over from before a restart (their reports may never end)
      sweepJob.start(intervalMs, { now: true, ...(lock ? { lock } : {}) });
    },
    stop() {
      sweepJob?.stop();
      sweepJob = null;
    },
  };
  return service;
}
