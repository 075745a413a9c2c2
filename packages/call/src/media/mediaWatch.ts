/**
 * The call's media watched through getStats() while it lasts: every POLL_MS the line's
 * quality (networkQuality.ts, the indicator both sides show) and whether the others' media stalled.
 *
 * A stall is how one side learns that the other lost its network: nothing else tells it (the other's
 * signalling is cut too, and Janus says nothing to subscribers while a publisher's packets stop). An
 * open microphone sends a packet every 20 ms (Chromium uses no DTX), so STALL_MS without one is a
 * cut, not a silence — unless every other participant muted its microphone, which `expectsAudio` says.
 *
 * The stall is timed from the last packet itself when the browser reports when it came
 * (`lastPacketReceivedTimestamp`), so it is told STALL_MS after the cut plus at most one poll; counting
 * from the poll that last saw the counter grow added up to a second more, and more on a busy machine.
 */
import type { ClockPort } from '../ports/clock.ts';
import type { MediaTransport } from '../ports/media.ts';
import { lineCountersOf, lineReadingBetween, type LineCounters } from './lineReading.ts';
import type { LineReading } from './lineSteps.ts';
import { countersOf, qualityBetween, type NetworkQuality, type StatsCounters } from './networkQuality.ts';

export const POLL_MS = 1000;
export const STALL_MS = 2500;

export interface MediaWatchOptions {
  media: Pick<MediaTransport, 'peerConnections'>;
  clock: ClockPort;
  /** false once the call (or this transport) is over: the watch stops */
  current: () => boolean;
  /** someone else in the call has an open microphone: their audio packets are expected */
  expectsAudio: () => boolean;
  /** someone else has an open microphone or camera: some packet is expected (muted ones send none) */
  expectsMedia?: () => boolean;
  quality: (quality: NetworkQuality) => void;
  stalled: (stalled: boolean) => void;
  /** the line steps' reading of each window (lineSteps.ts, audioFirst.ts) */
  line?: (reading: LineReading) => void;
}

/** Starts the watch; returns the function that stops it. */
export function watchMedia(options: MediaWatchOptions): () => void {
  let stopped = false;
  let cancel: () => void = () => undefined;
  let before: StatsCounters | null = null;
  let lineBefore: LineCounters | null = null;
  let lastAudioAt: number | null = null;
  /** when a packet of any kind last came (null: none yet) */
  let lastAnyAt: number | null = null;
  let stalled = false;
  /** the last window was a stall's (its line readings wait) */
  let lineStalled = false;
  let told = '';

  const poll = async () => {
    if (stopped || !options.current()) return;
    const pcs = Object.values(options.media.peerConnections()).filter((pc): pc is RTCPeerConnection => !!pc);
    const reports = await Promise.all(
      pcs.map((pc) =>
        pc.getStats().then(
          (r) => [...(r.values() as Iterable<Record<string, unknown>>)],
          () => [],
        ),
      ),
    );
    if (stopped || !options.current()) return;
    const after = countersOf(reports);
    const lineAfter = lineCountersOf(reports);
    const now = options.clock.now();
    if (after.audioReceived > (before?.audioReceived ?? 0)) lastAudioAt = now;
    if (after.audioReceived + after.videoReceived > (before ? before.audioReceived + before.videoReceived : 0)) lastAnyAt = now;
    // how long since the last packet: the browser's own time of it, else since the poll that saw one
    const audioAge = after.audioAgeMs ?? (lastAudioAt === null ? null : now - lastAudioAt);
    const anyAge = after.anyAgeMs ?? (lastAnyAt === null ? null : now - lastAnyAt);
    // the others' audio stopped, or nothing at all comes any more (the media server is down: muted or not)
    const isStalled =
      (options.expectsAudio() && lastAudioAt !== null && audioAge !== null && audioAge >= STALL_MS) ||
      (!!options.expectsMedia?.() && lastAnyAt !== null && anyAge !== null && anyAge >= STALL_MS);
    if (isStalled !== stalled) {
      stalled = isStalled;
      console.warn(`media: the others' media ${stalled ? 'stalled' : 'flows again'}`);
      options.stalled(stalled);
    }
    if (before) {
      const measured = qualityBetween(before, after);
      // nothing arrives (the others' audio, or any media at all: the media server down): the line is as
      // bad as it gets, whatever the last round trip and jitter, which stay as they were, said
      const quality: NetworkQuality = stalled ? { ...measured, level: 'poor', lossPercent: 100 } : measured;
      const text = JSON.stringify(quality);
      if (text !== told) {
        told = text;
        options.quality(quality);
      }
      // a stalled line (cut) says nothing of its steps: the readings wait for it, and the first one after
      // starts the estimate's grace again (lineSteps.ts), as a new route does
      if (lineBefore && !stalled) {
        const reading = lineReadingBetween({ stats: before, line: lineBefore }, { stats: after, line: lineAfter }, now);
        options.line?.(lineStalled ? { ...reading, newRoute: true } : reading);
      }
      lineStalled = stalled;
    }
    before = after;
    lineBefore = lineAfter;
  };

  const loop = () => {
    cancel = options.clock.setTimeout(() => {
      void poll().finally(() => {
        if (!stopped && options.current()) loop();
      });
    }, POLL_MS);
  };
  loop();
  return () => {
    stopped = true;
    cancel();
  };
}
