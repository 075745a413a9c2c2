/**
 * A microphone of speech over steady noise, for the noise-suppression journey: a WAV that Chromium
 * loops as its fake microphone (--use-file-for-fake-audio-capture). Each loop is NOISE_ONLY_S seconds of
 * pink noise alone (ffmpeg's anoisesrc), then as long of the same noise with a voice over it (ffmpeg's
 * flite), 48 kHz mono; written once into the temp folder (atomically, as fakeCamera.ts its file).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const FAKE_MICROPHONE = { noiseOnlyS: 3, speechS: 3, noiseAmplitude: 0.15 } as const;

const SPEECH = 'Hello, thank you for calling. How can I help you today? I can see your order here.';

let made: string | null = null;

/** The .wav file's path, made on first use. */
export function noisyMicrophoneFile(): string {
  if (made) return made;
  const { noiseOnlyS, speechS, noiseAmplitude } = FAKE_MICROPHONE;
  const seconds = noiseOnlyS + speechS;
  const file = path.join(os.tmpdir(), `lobby-fake-microphone-noisy-speech-${noiseOnlyS}-${speechS}-${noiseAmplitude}.wav`);
  if (!fs.existsSync(file)) {
    const partial = `${file}.${process.pid}.part.wav`;
    execFileSync('ffmpeg', [
      '-loglevel', 'error', '-y',
      '-f', 'lavfi', '-i', `anoisesrc=color=pink:amplitude=${noiseAmplitude}:sample_rate=48000:duration=${seconds}:seed=7`,
      '-f', 'lavfi', '-i', `flite=text='${SPEECH}':voice=slt`,
      // the voice starts after the noise-only part and is cut at the loop's end
      '-filter_complex',
      `[1]aresample=48000,volume=1.0,atrim=0:${speechS},adelay=${noiseOnlyS * 1000},apad=whole_dur=${seconds}[voice];` +
        `[0][voice]amix=inputs=2:duration=first:normalize=0[out]`,
      '-map', '[out]', '-ac', '1', '-ar', '48000', '-c:a', 'pcm_s16le', '-t', String(seconds), partial,
    ]);
    fs.renameSync(partial, file);
  }
  made = file;
  return file;
}
