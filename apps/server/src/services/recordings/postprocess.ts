/**
 * Recordings (docs/protocol.md "Recording"): Janus writes one .mjr file per stream under
 *   {root}/{companyId}/{callId}/{callId}_{username}_{guest|agent}[-screen]_{timestamp}-{audio|video}-{n}.mjr
 * After the call, janus-pp-rec turns each into .opus / .webm / .mp4, and ffmpeg makes two files in the
 * conversation's folder, every stream aligned on its first packet:
 * - {callId}.mp4, the recording: one picture composing every publisher's video, all audio mixed,
 *   H.264/AAC (mixCommand.ts) — what the console plays;
 * - {callId}.tracks.mkv, the raw tracks: every publisher's streams muxed side by side without
 *   re-encoding, a secondary download for whoever needs one participant alone.
 * A conversation with less than MIN_SECONDS of media (a call cancelled as it was answered) makes neither.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { callTimeline, mixArgs, type MixTrack } from './mixCommand.ts';

const execFileAsync = promisify(execFile);

/** the lowest CPU priority: a converter only takes what live calls leave */
export const CONVERTER_NICENESS = 19;

/**
 * Runs a converter (janus-pp-rec, ffprobe, ffmpeg) at CONVERTER_NICENESS. A mix re-encodes the whole
 * call and would take every core for as long as the call lasted; Janus and the Lobby server usually run
 * on the same machine, and the calls going on there must not stall for a call that has ended.
 */
export async function run(file: string, args: string[], options: { timeout: number }): Promise<{ stdout: string }> {
  // (the promise of promisify(execFile) carries its child)
  const pending = execFileAsync(file, args, { timeout: options.timeout, encoding: 'utf8' });
  try {
    if (pending.child.pid !== undefined) os.setPriority(pending.child.pid, CONVERTER_NICENESS);
  } catch {
    // it has ended already: nothing left to lower
  }
  const { stdout } = await pending;
  return { stdout };
}

/** A converted stream: its file, when its first packet was written (µs since the epoch), whose it is. */
interface Track {
  file: string;
  kind: 'audio' | 'video';
  startUs: number;
  /** seconds of media in the converted file */
  seconds: number;
  publisher: string;
  role: 'guest' | 'agent';
  screen: boolean;
}

/** janus-pp-rec's audio skew threshold: a gap in arrival this much longer than the RTP clock says is silence. */
const AUDIO_SKEW_MS = 200;

/** Shorter than this, a conversation has no content worth listing. */
export const MIN_SECONDS = 1;

/**
 * Who published a raw file, from the server's name for it (recordingName.ts):
 * {callId}_{username}_{guest|agent}[-screen]_{timestamp}-{audio|video}-{n}.mjr
 */
export function publisherOf(mjrName: string): Pick<Track, 'publisher' | 'role' | 'screen'> {
  const who = /^(.*)_\d+-(?:audio|video)-\d+\.mjr$/.exec(mjrName)?.[1] ?? mjrName;
  const screen = who.endsWith('-screen');
  const person = screen ? who.slice(0, -'-screen'.length) : who;
  // the call id is first; the same person in another call id of the chain is the same publisher
  const publisher = person.includes('_') ? person.slice(person.indexOf('_') + 1) : person;
  return { publisher, role: /(^|_)agent$/.test(person) ? 'agent' : 'guest', screen };
}

/** The .mjr files of a call folder. */
export async function mjrFiles(dir: string): Promise<string[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => n.endsWith('.mjr')).map((n) => path.join(dir, n));
}

/** The recording the console plays (one picture, one mixed sound). */
export function callOutputFile(dir: string, callId: string): string {
  return path.join(dir, `${callId}.mp4`);
}

/** Every publisher's streams side by side, not re-encoded (the secondary download). */
export function callTracksFile(dir: string, callId: string): string {
  return path.join(dir, `${callId}.tracks.mkv`);
}

interface MjrHeader {
  t?: string; // 'a' | 'v' | 'd'
  c?: string; // codec
  s?: number; // created (µs)
  u?: number; // first packet written (µs)
}

async function header(file: string, bins: Bins): Promise<MjrHeader> {
  const { stdout } = await run(bins.ppRec, ['-j', file], { timeout: 30_000 });
  return JSON.parse(stdout.trim()) as MjrHeader;
}

export interface Bins {
  ppRec: string;
  ffmpeg: string;
  ffprobe: string;
}

export const DEFAULT_BINS: Bins = { ppRec: 'janus-pp-rec', ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' };

/** Seconds of media in a converted file (0 when ffprobe finds none). */
async function secondsOf(file: string, bins: Bins): Promise<number> {
  const { stdout } = await run(bins.ffprobe, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], { timeout: 60_000 });
  const seconds = Number(stdout.trim());
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
}

/**
 * Converts every .mjr of a call folder and muxes them into {callId}.mkv. Resolves with the output path,
 * or null when the folder holds nothing playable. Intermediate files are removed.
 */
export async function processCallFolder(dir: string, callId: string, bins: Bins = DEFAULT_BINS): Promise<string | null> {
  return processCallFolders([dir], dir, callId, bins);
}

/**
 * Converts every .mjr of several call folders (the parts of a call resumed after hold: one Janus room,
 * hence one folder, per call id) and muxes them on one timeline into {outDir}/{callId}.mkv.
 */
export async function processCallFolders(
  dirs: string[],
  outDir: string,
  callId: string,
  bins: Bins = DEFAULT_BINS,
  /** the chain's answer and end (epoch ms) as its reports tell them: the file lasts the call (callTimeline) */
  call?: { answeredAt: number | null; endedAt: number | null },
): Promise<string | null> {
  await fs.mkdir(outDir, { recursive: true });
  const work = await fs.mkdtemp(path.join(outDir, '.work-'));
  const mjrs = (await Promise.all(dirs.map((d) => mjrFiles(d)))).flat();
  const tracks: Track[] = [];
  try {
    for (const mjr of mjrs.sort()) {
      let h: MjrHeader;
      try {
        h = await header(mjr, bins);
      } catch {
        continue; // an empty or broken file (a publisher that never sent media)
      }
      if (h.t !== 'a' && h.t !== 'v') continue;
      const kind = h.t === 'a' ? 'audio' : 'video';
      const ext = kind === 'audio' ? (h.c === 'opus' ? 'opus' : 'wav') : /^h26[45]$/.test(h.c ?? '') ? 'mp4' : 'webm';
      const out = path.join(work, `${path.basename(mjr, '.mjr')}.${ext}`);
      try {
        // audio: a muted browser sends no packets and its RTP clock does not jump over the silence, so
        // without skew compensation (-S, ms) every later word would move earlier by the muted time;
        // with it, janus-pp-rec fills the gap after the packets' arrival times (e2e incall-recording)
        const skew = kind === 'audio' ? ['-S', String(AUDIO_SKEW_MS)] : [];
        await run(bins.ppRec, ['-o', '-d', '2', ...skew, mjr, out], { timeout: 300_000 });
        const stat = await fs.stat(out);
        if (stat.size === 0) continue;
      } catch {
        continue;
      }
      const seconds = await secondsOf(out, bins).catch(() => 0);
      if (seconds <= 0) continue;
      tracks.push({ file: out, kind, startUs: h.u ?? h.s ?? 0, seconds, ...publisherOf(path.basename(mjr)) });
    }
    if (!tracks.length) return null;
    const start = Math.min(...tracks.map((t) => t.startUs));
    const mediaSeconds = Math.max(...tracks.map((t) => (t.startUs - start) / 1e6 + t.seconds));
    if (mediaSeconds < MIN_SECONDS) return null;
    const timeline = callTimeline(tracks, call);
    const placed: (MixTrack & { seconds: number })[] = tracks.map((t) => ({ ...t, offset: Math.max(0, (t.startUs - timeline.zeroUs) / 1e6) }));

    // the raw tracks first: a failure of the (slower) mix still leaves them
    const tracksFile = callTracksFile(outDir, callId);
    const raw = ['-hide_banner', '-loglevel', 'error', '-y'];
    for (const t of placed) {
      if (t.offset > 0) raw.push('-itsoffset', t.offset.toFixed(3));
      raw.push('-i', t.file);
    }
    placed.forEach((_, i) => raw.push('-map', String(i)));
    raw.push('-c', 'copy', '-f', 'matroska', `${tracksFile}.partial`);
    await run(bins.ffmpeg, raw, { timeout: 600_000 });
    await fs.rename(`${tracksFile}.partial`, tracksFile);

    const output = callOutputFile(outDir, callId);
    await run(bins.ffmpeg, mixArgs(placed, timeline.to, `${output}.partial`, timeline.from), { timeout: 1_800_000 });
    await fs.rename(`${output}.partial`, output);
    return output;
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}
