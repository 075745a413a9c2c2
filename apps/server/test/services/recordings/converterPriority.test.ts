/**
 * The converters of a recording (janus-pp-rec, ffprobe, ffmpeg) run at the lowest CPU priority, so that a
 * mix never takes the CPU from the calls going on (docs/protocol.md "Recording").
 */
import { describe, expect, it } from 'vitest';
import { CONVERTER_NICENESS, run } from '../../../src/services/recordings/postprocess.ts';

describe('a recording converter', () => {
  it('when it runs, then at the lowest priority; its output and failures come back as before', async () => {
    // the child reads its own niceness (field 19 of /proc/PID/stat) once it had time to be lowered
    const { stdout } = await run('sh', ['-c', 'sleep 0.3; cut -d" " -f19 /proc/$$/stat'], { timeout: 10_000 });
    expect(Number(stdout.trim())).toBe(CONVERTER_NICENESS);
    await expect(run('sh', ['-c', 'exit 3'], { timeout: 10_000 })).rejects.toMatchObject({ code: 3 });
  });
});
