/**
 * When the gate starts an armed room's recording of the guest (docs/performance.md, "Call set-up").
 *
 * A recording's start asks the guest's publisher for a keyframe (Janus's `enable_recording` sends it a
 * PLI), and so does the agent's subscription to the guest when it comes up. Chromium's encoder answers
 * one keyframe request in 300 ms and drops the others (libwebrtc EncoderRtcpFeedback,
 * kMinKeyframeSendInterval): started at the agent's configure, the recording's request came first and
 * the agent's own, a few hundred ms later, was dropped — the agent then waited for its receiver to ask
 * again (≈ 100–250 ms more for the guest's first frame on screen).
 *
 * So the recording is started in two parts. The agent's own streams: from their first packet, by its
 * configure (the gate adds `record` with the room's secret; a publisher not yet connected asks no
 * keyframe). The guest's: once the agent's subscription is up (Janus's `webrtcup` for the agent's
 * subscriber handle) and the keyframe it asked for has been answered, i.e. KEYFRAME_GAP_MS later, so
 * that the recording's own request is answered too and its file opens on a keyframe. If the gate never
 * sees that `webrtcup` (Janus's HTTP transport, a gate restarted mid-set-up), FALLBACK_MS after the
 * agent's configure. Either way, as before: not while the guest waits, nor while the agent's browser
 * sets up its camera. Starting is idempotent (mediaRooms.startRecording claims it).
 */
export const KEYFRAME_GAP_MS = 350;
export const FALLBACK_MS = 3000;

export interface RecordingStarter {
  /** the agent's configure passed with `record` (its own streams are recorded from their first packet) */
  agentPublishing(room: string): void;
  /** Janus says the agent's subscription to the room's feeds is up */
  agentSubscribed(room: string): void;
}

export function createRecordingStarter(
  start: (room: string) => Promise<void>,
  log: (message: string, error: unknown) => void = () => undefined,
  later: (run: () => void, ms: number) => void = (run, ms) => void setTimeout(run, ms).unref(),
): RecordingStarter {
  const startLater = (room: string, ms: number) =>
    later(() => void start(room).catch((error: unknown) => log(`starting the recording of ${room} failed`, error)), ms);
  return {
    agentPublishing: (room) => startLater(room, FALLBACK_MS),
    agentSubscribed: (room) => startLater(room, KEYFRAME_GAP_MS),
  };
}
