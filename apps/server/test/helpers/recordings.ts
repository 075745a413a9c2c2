/**
 * Stand-ins for janus-pp-rec and ffmpeg in unit tests, so that the recordings service's decisions (what is
 * complete, what goes into one file) are tested without real media. A fake .mjr holds its header JSON
 * (what `janus-pp-rec -j` prints, plus `d`: its seconds of media); the fake converter copies it; the
 * fake ffprobe prints `d`; the fake ffmpeg writes the list of its inputs (file names and where each is
 * placed on the timeline: -itsoffset, or the mix's setpts/adelay) as JSON into the output. The real tools run in e2e/incall-recording.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Bins } from '../../src/services/recordings/postprocess.ts';

const PP_REC = `#!/usr/bin/env node
const fs = require('node:fs');
const args = process.argv.slice(2);
if (args[0] === '-j') { process.stdout.write(fs.readFileSync(args[1], 'utf8')); process.exit(0); }
const [mjr, out] = args.slice(-2);
fs.copyFileSync(mjr, out);
`;

const FFMPEG = `#!/usr/bin/env node
const fs = require('node:fs');
const path = require('node:path');
const args = process.argv.slice(2);
const inputs = [];
let offset = 0;
for (let i = 0; i < args.length; i += 1) {
  if (args[i] === '-itsoffset') offset = Number(args[i + 1]);
  if (args[i] === '-i') { inputs.push({ file: path.basename(args[i + 1]), offset }); offset = 0; }
}
const graph = args[args.indexOf('-filter_complex') + 1] || '';
inputs.forEach((input, n) => {
  const v = new RegExp('\\\\[' + n + ':v\\\\][^;]*setpts=PTS-STARTPTS\\\\+([0-9.]+)/TB').exec(graph);
  const a = new RegExp('\\\\[' + n + ':a\\\\][^;]*adelay=([0-9]+)').exec(graph);
  if (v) input.offset = Number(v[1]);
  if (a) input.offset = Number(a[1]) / 1000;
});
fs.writeFileSync(args[args.length - 1], JSON.stringify(inputs));
`;

const FFPROBE = `#!/usr/bin/env node
const fs = require('node:fs');
const header = JSON.parse(fs.readFileSync(process.argv[process.argv.length - 1], 'utf8'));
process.stdout.write(String(header.d ?? 10) + '\\n');
`;

/** Writes the three fake tools into `dir` and answers their paths. */
export function fakeBins(dir: string): Bins {
  fs.mkdirSync(dir, { recursive: true });
  const ppRec = path.join(dir, 'fake-janus-pp-rec.cjs');
  const ffmpeg = path.join(dir, 'fake-ffmpeg.cjs');
  const ffprobe = path.join(dir, 'fake-ffprobe.cjs');
  fs.writeFileSync(ppRec, PP_REC, { mode: 0o755 });
  fs.writeFileSync(ffmpeg, FFMPEG, { mode: 0o755 });
  fs.writeFileSync(ffprobe, FFPROBE, { mode: 0o755 });
  return { ppRec, ffmpeg, ffprobe };
}

/**
 * A fake raw recording of one stream of a publisher, as Janus names it (docs/protocol.md "Recording"),
 * written `ageMs` ago. Answers the file's path.
 */
export function fakeMjr(
  root: string,
  companyId: number,
  callId: string,
  who: string,
  kind: 'audio' | 'video',
  firstPacketMs: number,
  ageMs = 60_000,
  seconds = 10,
): string {
  const dir = path.join(root, String(companyId), callId);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${callId}_${who}_${firstPacketMs}-${kind}-0.mjr`);
  fs.writeFileSync(file, JSON.stringify({ t: kind === 'audio' ? 'a' : 'v', c: kind === 'audio' ? 'opus' : 'vp8', u: firstPacketMs * 1000, d: seconds }));
  const when = new Date(Date.now() - ageMs);
  fs.utimesSync(file, when, when);
  return file;
}
