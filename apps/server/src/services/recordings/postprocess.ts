/**
 * Recordings (SPEC.md §7, DESIGN.md §3): Janus writes one .mjr file per published stream under
 *   {root}/{companyId}/{callId}/{callId}_{username}_{guest|agent}[-screen]_{timestamp}-{audio|video}-{n}.mjr
 * After the call, janus-pp-rec turns each into .opus / .webm / .mp4 and ffmpeg muxes every publisher's
 * streams, aligned on their first packet, into one playable file per call: {callId}.mkv in the same
 * folder. Nothing is re-encoded.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A converted stream: its file and when its first packet was written (µs since the epoch). */
interface Track {
  file: string;
  kind: 'audio' | 'video';
  startUs: number;
}

/** The .mjr files of a call folder. */
export async function mjrFiles(dir: string): Promise<string[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => n.endsWith('.mjr')).map((n) => path.join(dir, n));
}

export function callOutputFile(dir: string, callId: string): string {
  return path.join(dir, `${callId}.mkv`);
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
}

export const DEFAULT_BINS: Bins = { ppRec: 'janus-pp-rec', ffmpeg: 'ffmpeg' };

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
export async function processCallFolders(dirs: string[], outDir: string, callId: string, bins: Bins = DEFAULT_BINS): Promise<string | null> {
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
        await run(bins.ppRec, ['-o', '-d', '2', mjr, out], { timeout: 300_000 });
        const stat = await fs.stat(out);
        if (stat.size === 0) continue;
      } catch {
        continue;
      }
      tracks.push({ file: out, kind, startUs: h.u ?? h.s ?? 0 });
    }
    if (!tracks.length) return null;
    const start = Math.min(...tracks.map((t) => t.startUs));
    const args = ['-hide_banner', '-loglevel', 'error', '-y'];
    for (const t of tracks) {
      const offset = Math.max(0, (t.startUs - start) / 1e6);
      if (offset > 0) args.push('-itsoffset', offset.toFixed(3));
      args.push('-i', t.file);
    }
    tracks.forEach((_, i) => args.push('-map', String(i)));
    const output = callOutputFile(outDir, callId);
    const partial = `${output}.partial.mkv`;
    args.push('-c', 'copy', partial);
    await run(bins.ffmpeg, args, { timeout: 600_000 });
    await fs.rename(partial, output);
    return output;
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}
