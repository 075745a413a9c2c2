/**
 * The ffmpeg command that turns a conversation's converted tracks into ONE playable file (one file per
 * conversation): every publisher's video composed on one 1280×720 picture, every audio track mixed, all on
 * the conversation's timeline (a hold is black and silent), H.264/AAC in MP4, which every browser plays.
 *
 * Layout (decided once for the whole file, so that nobody's tile jumps around):
 * - without a shared screen: a grid of equal tiles (1 → full picture, 2 → side by side, 3–4 → 2×2, …);
 * - with a screen shared at any time: the screen large on the left (960×720), the people in a column of
 *   tiles on the right (320 wide).
 * The tracks of one publisher (its camera in every call id of a hold chain, a camera turned off and on)
 * share one tile: each is overlaid at that tile for its own time window only (eof_action=pass).
 *
 * Pure: the service runs it (postprocess.ts); unit tests check the graph it builds.
 */

export interface MixTrack {
  file: string;
  kind: 'audio' | 'video';
  /** seconds from the conversation's start to this track's first packet */
  offset: number;
  /** who published it: tracks with the same publisher share a tile */
  publisher: string;
  role: 'guest' | 'agent';
  screen: boolean;
}

export interface Tile {
  x: number;
  y: number;
  w: number;
  h: number;
}

export const CANVAS = { w: 1280, h: 720 } as const;
const FPS = 25;

/** Even numbers only: H.264 in yuv420p wants even sizes and positions. */
const even = (n: number) => Math.floor(n / 2) * 2;

/** The tile of each person (in order) and of the screen, when one is shared. */
export function layout(people: number, screen: boolean): { people: Tile[]; screen: Tile | null } {
  if (screen) {
    const side = 320;
    const h = even(Math.min(CANVAS.h / 4, CANVAS.h / Math.max(1, people)));
    return {
      screen: { x: 0, y: 0, w: CANVAS.w - side, h: CANVAS.h },
      people: Array.from({ length: people }, (_, i) => ({ x: CANVAS.w - side, y: i * h, w: side, h })),
    };
  }
  const cols = Math.max(1, Math.ceil(Math.sqrt(people)));
  const rows = Math.max(1, Math.ceil(people / cols));
  const w = even(CANVAS.w / cols);
  const h = even(CANVAS.h / rows);
  return {
    screen: null,
    people: Array.from({ length: people }, (_, i) => ({ x: (i % cols) * w, y: Math.floor(i / cols) * h, w, h })),
  };
}

/** The guest first, then the agents, each in order of first appearance. */
function orderPeople(tracks: MixTrack[]): string[] {
  const seen: string[] = [];
  const sorted = [...tracks].sort((a, b) => (a.role === b.role ? a.offset - b.offset : a.role === 'guest' ? -1 : 1));
  for (const t of sorted) if (!t.screen && !seen.includes(t.publisher)) seen.push(t.publisher);
  return seen;
}

const secs = (n: number) => n.toFixed(3);

/**
 * Where the file's timeline lies. The tracks are placed from `zero` (the earlier of the first packet and
 * the answer); the file keeps `from`..`to` (seconds from zero): the call as its report tells it, from the
 * answer to the end, so that the file lasts what the call lasted. Media Janus wrote outside it (a guest
 * still in the room for a moment after the agent hung up, on a busy machine) is not the conversation and
 * is left out; a part of the call with no media yet is black and silent. Without a report's times (a
 * call that never ended), the file is the media as it was written.
 */
export interface Timeline {
  /** epoch µs of the timeline's zero */
  zeroUs: number;
  /** seconds from zero: where the file starts and ends */
  from: number;
  to: number;
}

export function callTimeline(
  tracks: readonly { startUs: number; seconds: number }[],
  call: { answeredAt: number | null; endedAt: number | null } = { answeredAt: null, endedAt: null },
): Timeline {
  const firstUs = Math.min(...tracks.map((t) => t.startUs));
  const lastUs = Math.max(...tracks.map((t) => t.startUs + t.seconds * 1e6));
  const answeredUs = call.answeredAt === null ? null : call.answeredAt * 1000;
  const endedUs = call.endedAt === null ? null : call.endedAt * 1000;
  // a window the media cannot lie in (times from another clock, an end before the answer): the media alone
  const usable = answeredUs !== null && answeredUs < lastUs && (endedUs === null || endedUs > Math.max(answeredUs, firstUs));
  if (!usable) {
    const zeroUs = firstUs;
    return { zeroUs, from: 0, to: (lastUs - zeroUs) / 1e6 };
  }
  const zeroUs = Math.min(firstUs, answeredUs);
  return { zeroUs, from: (answeredUs - zeroUs) / 1e6, to: ((endedUs ?? lastUs) - zeroUs) / 1e6 };
}

/**
 * The arguments of one ffmpeg run: inputs in `tracks` order, then the filter graph and the output.
 * `duration`: seconds from the timeline's zero to the end of the file; `from`: seconds cut at its start
 * (callTimeline).
 */
export function mixArgs(tracks: MixTrack[], duration: number, output: string, from = 0): string[] {
  const args = ['-hide_banner', '-loglevel', 'error', '-y'];
  // a camera changes resolution mid-call (WebRTC adapts it): keep one graph, scale copes per frame
  for (const t of tracks) args.push(...(t.kind === 'video' ? ['-reinit_filter', '0'] : []), '-i', t.file);

  const people = orderPeople(tracks);
  const hasScreen = tracks.some((t) => t.kind === 'video' && t.screen);
  const tiles = layout(people.length, hasScreen);
  const tileOf = (t: MixTrack): Tile | null => (t.screen ? tiles.screen : (tiles.people[people.indexOf(t.publisher)] ?? null));

  const graph: string[] = [`color=c=black:s=${CANVAS.w}x${CANVAS.h}:r=${FPS}:d=${secs(duration)}[base]`];
  let below = 'base';
  let audio: string[] = [];
  tracks.forEach((t, i) => {
    if (t.kind === 'video') {
      const tile = tileOf(t);
      if (!tile) return;
      graph.push(
        `[${i}:v]scale=${tile.w}:${tile.h}:force_original_aspect_ratio=decrease,` +
          `pad=${tile.w}:${tile.h}:(ow-iw)/2:(oh-ih)/2,setsar=1,setpts=PTS-STARTPTS+${secs(t.offset)}/TB[v${i}]`,
      );
      // before its first frame and after its last, the picture below shows through
      graph.push(`[${below}][v${i}]overlay=x=${tile.x}:y=${tile.y}:eof_action=pass[o${i}]`);
      below = `o${i}`;
    } else {
      // gaps in a track (packets lost, a muted browser sending nothing) become silence, so that what
      // follows stays at its time; then the track is moved to its place on the timeline
      graph.push(
        `[${i}:a]asetpts=PTS-STARTPTS,aresample=48000:async=1:first_pts=0,` +
          `adelay=${Math.round(t.offset * 1000)}:all=1[a${i}]`,
      );
      audio = [...audio, `[a${i}]`];
    }
  });
  const cutV = from > 0 ? `,trim=start=${secs(from)},setpts=PTS-STARTPTS` : '';
  const cutA = from > 0 ? `,atrim=start=${secs(from)},asetpts=PTS-STARTPTS` : '';
  graph.push(`[${below}]format=yuv420p${cutV}[vout]`);
  if (audio.length) {
    // normalize=0: a participant speaking alone is not made quieter by the silence of the others
    graph.push(`${audio.join('')}amix=inputs=${audio.length}:duration=longest:dropout_transition=0:normalize=0,apad${cutA}[aout]`);
  } else {
    graph.push('anullsrc=r=48000:cl=mono[aout]');
  }
  args.push(
    '-filter_complex', graph.join(';'),
    '-map', '[vout]', '-map', '[aout]',
    '-t', secs(Math.max(0, duration - from)),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '26', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', '96k',
    '-movflags', '+faststart',
    '-f', 'mp4',
    output,
  );
  return args;
}
