/**
 * Turns the local stream's audio or video tracks on or off, for the apps' engine-less actions (dev
 * fixtures, tests): with an engine, muting is the engine's. Returns whether the kind is now muted.
 */
export function toggleLocalTracks(
  stream: MediaStream | null,
  kind: 'audio' | 'video',
  mutedNow: boolean,
): boolean {
  const muted = !mutedNow;
  const tracks = kind === 'audio' ? stream?.getAudioTracks() : stream?.getVideoTracks();
  for (const track of tracks ?? []) track.enabled = !muted;
  return muted;
}
