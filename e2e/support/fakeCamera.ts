/**
 * The camera of every journey's Chromium: a plain green picture (as Chromium's own fake camera: the
 * watermark journey reads a mark on it) with a moving test card (ffmpeg's testsrc2) in its lower middle,
 * of FAKE_CAMERA size and rate, written once into the temp folder as a raw .y4m file that Chromium loops
 * (--use-file-for-fake-video-capture). Chromium's built-in fake device draws every frame at the size the
 * page asks for (the apps ask for up to 1440×1080), and drawing, encoding, decoding and showing that in
 * each browser of a journey is where most of the suite's CPU went on a 2-core machine (docs/performance.md
 * "The suite's time"). A page still gets what it asks for as far as a real 640×480 webcam would give it.
 *
 * A journey that needs several cameras (`--use-fake-device-for-media-stream=device-count=N`) keeps
 * Chromium's drawn ones: a file gives one camera only. `LOBBY_E2E_DRAWN_CAMERA=1` gives every browser
 * Chromium's drawn camera again, to compare the two in one run (docs/performance.md).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const FAKE_CAMERA = { width: 640, height: 480, fps: 15, seconds: 2 } as const;

let made: string | null = null;

/** The .y4m file's path, made on first use (atomically: several workers may ask at once). */
export function fakeCameraFile(): string {
  if (made) return made;
  const { width, height, fps, seconds } = FAKE_CAMERA;
  const file = path.join(os.tmpdir(), `lobby-fake-camera-green-${width}x${height}-${fps}.y4m`);
  if (!fs.existsSync(file)) {
    const partial = `${file}.${process.pid}.part`;
    execFileSync('ffmpeg', [
      '-loglevel', 'error', '-y',
      '-f', 'lavfi', '-i', `color=c=0x00ff00:size=${width}x${height}:rate=${fps}`,
      '-f', 'lavfi', '-i', `testsrc2=size=${width / 2}x${height / 2}:rate=${fps}`,
      // the card in the lower middle: the top band (where the watermark sits) stays plain green
      '-filter_complex', `[0][1]overlay=${width / 4}:${(height * 3) / 8}`,
      '-t', String(seconds), '-pix_fmt', 'yuv420p', '-f', 'yuv4mpegpipe', partial,
    ]);
    fs.renameSync(partial, file);
  }
  made = file;
  return file;
}

/** Chromium's switches for the fake camera, unless `extraArgs` ask for Chromium's own drawn cameras. */
export function fakeCameraArgs(extraArgs: readonly string[] = []): string[] {
  if (process.env.LOBBY_E2E_DRAWN_CAMERA === '1') return [];
  if (extraArgs.some((a) => a.startsWith('--use-fake-device-for-media-stream=') || a.startsWith('--use-file-for-fake-video-capture'))) return [];
  return [`--use-file-for-fake-video-capture=${fakeCameraFile()}`];
}
