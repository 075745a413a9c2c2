/**
 * The ffmpeg command that makes a conversation's one playable file: the filter graph
 * for 1, 2 and 3 participants, with and without a shared screen. The real ffmpeg runs it in
 * e2e/incall-recording.
 */
import { describe, expect, it } from 'vitest';
import { CANVAS, callTimeline, layout, mixArgs, type MixTrack } from '../../src/services/recordings/mixCommand.ts';
import { publisherOf } from '../../src/services/recordings/postprocess.ts';

const track = (file: string, kind: 'audio' | 'video', offset: number, publisher: string, extra: Partial<MixTrack> = {}): MixTrack => ({
  file,
  kind,
  offset,
  publisher,
  role: publisher.startsWith('agent') ? 'agent' : 'guest',
  screen: false,
  ...extra,
});
const graphOf = (args: string[]) => (args[args.indexOf('-filter_complex') + 1] ?? '').split(';');
const overlayAt = (graph: string[], input: number) => /overlay=x=(\d+):y=(\d+)/.exec(graph.find((f) => f.includes(`[v${input}]overlay`)) ?? '')?.slice(1).map(Number);
const scaleOf = (graph: string[], input: number) => /scale=(\d+):(\d+)/.exec(graph.find((f) => f.startsWith(`[${input}:v]`)) ?? '')?.slice(1).map(Number);

describe('the mixed recording command', () => {
  it('when one participant, then its video fills the picture and its audio is the one mixed input', () => {
    const args = mixArgs([track('g.webm', 'video', 0, 'guest'), track('g.opus', 'audio', 0, 'guest')], 5, 'out.mp4');
    const graph = graphOf(args);

    expect(args.filter((a) => a === '-i')).toHaveLength(2);
    expect(graph[0]).toBe(`color=c=black:s=${CANVAS.w}x${CANVAS.h}:r=25:d=5.000[base]`);
    expect(scaleOf(graph, 0)).toEqual([1280, 720]);
    expect(overlayAt(graph, 0)).toEqual([0, 0]);
    expect(graph.at(-1)).toContain('[a1]amix=inputs=1:');
    // one video and one audio stream, H.264/AAC in MP4, of the conversation's length
    expect(args.filter((a) => a === '-map')).toHaveLength(2);
    expect(args.slice(args.indexOf('-map'), args.indexOf('-map') + 4)).toEqual(['-map', '[vout]', '-map', '[aout]']);
    expect(args[args.indexOf('-c:v') + 1]).toBe('libx264');
    expect(args[args.indexOf('-c:a') + 1]).toBe('aac');
    expect(args[args.indexOf('-t') + 1]).toBe('5.000');
    expect(args.at(-1)).toBe('out.mp4');
  });

  it('when two participants, then they sit side by side, each at its time, and both audios are mixed at theirs', () => {
    const args = mixArgs(
      [
        track('a.webm', 'video', 0.5, 'agent-18_agent'),
        track('a.opus', 'audio', 0.4, 'agent-18_agent'),
        track('g.webm', 'video', 0, 'g1_guest'),
        track('g.opus', 'audio', 0, 'g1_guest'),
      ],
      12.25,
      'out.mp4',
    );
    const graph = graphOf(args);

    // the guest is first (left) even though the agent's track comes first
    expect(overlayAt(graph, 2)).toEqual([0, 0]);
    expect(overlayAt(graph, 0)).toEqual([640, 0]);
    expect(scaleOf(graph, 0)).toEqual([640, 720]);
    expect(graph.find((f) => f.startsWith('[0:v]'))).toContain('setpts=PTS-STARTPTS+0.500/TB');
    expect(graph.find((f) => f.startsWith('[1:a]'))).toContain('adelay=400:all=1');
    expect(graph.find((f) => f.startsWith('[3:a]'))).toContain('adelay=0:all=1');
    expect(graph.find((f) => f.includes('amix'))).toMatch(/^\[a1\]\[a3\]amix=inputs=2:duration=longest:dropout_transition=0:normalize=0/);
    expect(args[args.indexOf('-t') + 1]).toBe('12.250');
  });

  it('when three participants, then a 2×2 grid, and one publisher\u2019s tracks across a hold share its tile', () => {
    const args = mixArgs(
      [
        track('g1.webm', 'video', 0, 'g_guest'),
        track('a1.webm', 'video', 1, 'a_agent'),
        track('s1.webm', 'video', 2, 'sup_agent'),
        track('g2.webm', 'video', 30, 'g_guest'),
      ],
      40,
      'out.mp4',
    );
    const graph = graphOf(args);

    expect(overlayAt(graph, 0)).toEqual([0, 0]);
    expect(overlayAt(graph, 1)).toEqual([640, 0]);
    expect(overlayAt(graph, 2)).toEqual([0, 360]);
    expect(overlayAt(graph, 3)).toEqual([0, 0]);
    expect(graph.find((f) => f.includes('[v3]overlay'))).toContain('eof_action=pass');
    // nobody spoke: the sound is silence of the same length, still one audio stream
    expect(graph.at(-1)).toBe('anullsrc=r=48000:cl=mono[aout]');
  });

  it('when a screen is shared, then it is large on the left and the people are a column on the right', () => {
    const args = mixArgs(
      [
        track('g.webm', 'video', 0, 'g_guest'),
        track('a.webm', 'video', 0, 'a_agent'),
        track('screen.webm', 'video', 3, 'g_guest', { screen: true }),
      ],
      10,
      'out.mp4',
    );
    const graph = graphOf(args);

    expect(scaleOf(graph, 2)).toEqual([960, 720]);
    expect(overlayAt(graph, 2)).toEqual([0, 0]);
    expect(scaleOf(graph, 0)).toEqual([320, 180]);
    expect(overlayAt(graph, 0)).toEqual([960, 0]);
    expect(overlayAt(graph, 1)).toEqual([960, 180]);
  });

  it('when the layout is asked for many people, then every tile is inside the picture with even sizes', () => {
    for (const screen of [false, true]) {
      for (let n = 1; n <= 10; n += 1) {
        const tiles = layout(n, screen);
        for (const t of [...tiles.people, ...(tiles.screen ? [tiles.screen] : [])]) {
          expect(t.x + t.w).toBeLessThanOrEqual(CANVAS.w);
          expect(t.y + t.h).toBeLessThanOrEqual(CANVAS.h);
          expect([t.w % 2, t.h % 2]).toEqual([0, 0]);
        }
      }
    }
  });

  it('when a raw file is named by the server, then its publisher, role and screen are read from the name', () => {
    expect(publisherOf('abc--1_agent-18_agent_1700000000000-video-0.mjr')).toEqual({ publisher: 'agent-18_agent', role: 'agent', screen: false });
    expect(publisherOf('abc--2_g6809c_guest-screen_1700000000000-video-1.mjr')).toEqual({ publisher: 'g6809c_guest', role: 'guest', screen: true });
  });

  it('when Janus restarted mid-call (the room made again), then each publisher’s two parts in the one folder share its tile, each at its own time, and both sounds are mixed', () => {
    const names = [
      'abc--1_g6809c_guest_1700000000000-video-1.mjr',
      'abc--1_agent-18_agent_1700000000500-video-1.mjr',
      'abc--1_g6809c_guest_1700000020000-video-1.mjr',
      'abc--1_agent-18_agent_1700000020400-video-1.mjr',
      'abc--1_g6809c_guest_1700000020000-audio-0.mjr',
    ];
    const [g1, a1, g2, a2, g2a] = names.map((n) => publisherOf(n));
    expect(g2).toEqual(g1);
    expect(a2).toEqual(a1);
    const args = mixArgs(
      [
        track('g1.webm', 'video', 0, g1!.publisher, { role: 'guest' }),
        track('a1.webm', 'video', 0.5, a1!.publisher, { role: 'agent' }),
        track('g2.webm', 'video', 20, g2!.publisher, { role: 'guest' }),
        track('a2.webm', 'video', 20.4, a2!.publisher, { role: 'agent' }),
        track('g2.opus', 'audio', 20, g2a!.publisher, { role: 'guest' }),
      ],
      30,
      'out.mp4',
    );
    const graph = graphOf(args);
    expect(overlayAt(graph, 2)).toEqual(overlayAt(graph, 0));
    expect(overlayAt(graph, 3)).toEqual(overlayAt(graph, 1));
    expect(overlayAt(graph, 0)).not.toEqual(overlayAt(graph, 1));
    expect(graph.find((f) => f.startsWith('[2:v]'))).toContain('setpts=PTS-STARTPTS+20.000/TB');
    expect(graph.find((f) => f.startsWith('[4:a]'))).toContain('adelay=20000');
  });

  describe('the file lasts the call', () => {
    // epoch ms of the answer; the tracks' starts in epoch µs
    const answeredAt = 1_800_000_000_000;
    const at = (secondsAfterAnswer: number) => (answeredAt + secondsAfterAnswer * 1000) * 1000;

    it('when Janus wrote a guest for a while after the end was reported, then the file stops at the reported end', () => {
      // the guest's tracks from 0.4 s to 33.1 s; the call answered at 0 and ended at 30 s
      const timeline = callTimeline([{ startUs: at(0.4), seconds: 32.7 }, { startUs: at(0.6), seconds: 29 }], { answeredAt, endedAt: answeredAt + 30_000 });

      expect(timeline).toEqual({ zeroUs: at(0), from: 0, to: 30 });
      const args = mixArgs([track('g.webm', 'video', 0.4, 'guest')], timeline.to, 'out.mp4', timeline.from);
      expect(args[args.indexOf('-t') + 1]).toBe('30.000');
    });

    it('when the media began before the recorded answer, then the file starts at the answer and the earlier seconds are cut', () => {
      const timeline = callTimeline([{ startUs: at(-2.5), seconds: 20 }], { answeredAt, endedAt: answeredAt + 15_000 });

      expect(timeline).toEqual({ zeroUs: at(-2.5), from: 2.5, to: 17.5 });
      const args = mixArgs([track('g.webm', 'video', 0, 'guest'), track('g.opus', 'audio', 0, 'guest')], timeline.to, 'out.mp4', timeline.from);
      const graph = graphOf(args);
      expect(graph.find((f) => f.endsWith('[vout]'))).toContain('trim=start=2.500,setpts=PTS-STARTPTS');
      expect(graph.find((f) => f.endsWith('[aout]'))).toContain('atrim=start=2.500,asetpts=PTS-STARTPTS');
      expect(args[args.indexOf('-t') + 1]).toBe('15.000');
    });

    it('when the call never reported its end, then the file is the media as written', () => {
      expect(callTimeline([{ startUs: at(1), seconds: 10 }], { answeredAt, endedAt: null })).toEqual({ zeroUs: at(0), from: 0, to: 11 });
      expect(callTimeline([{ startUs: at(1), seconds: 10 }])).toEqual({ zeroUs: at(1), from: 0, to: 10 });
    });

    it('when the reported times cannot hold the media (an end before the answer), then the file is the media as written', () => {
      expect(callTimeline([{ startUs: at(0), seconds: 10 }], { answeredAt, endedAt: answeredAt - 1000 })).toEqual({ zeroUs: at(0), from: 0, to: 10 });
      expect(callTimeline([{ startUs: at(0), seconds: 10 }], { answeredAt: answeredAt + 60_000, endedAt: null })).toEqual({ zeroUs: at(0), from: 0, to: 10 });
    });
  });
});
