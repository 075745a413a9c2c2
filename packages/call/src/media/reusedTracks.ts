/**
 * Janus gives a departed feed's m-lines to a new feed when both changes meet in one negotiation of a
 * multistream subscription (a transfer: the first agent leaves while we subscribe to the new one). The
 * transceivers then keep receiving, so their tracks stay the same objects and the browser fires no track
 * event (janus.js no `onremotetrack`): the new feed's media would never reach the call.
 *
 * Answers, once an answer is applied, the receiving tracks whose mid now belongs to a feed that does not
 * have them yet: the subscription hands them to that feed itself.
 */
export interface ReceivingTransceiver {
  mid: string | null;
  currentDirection: RTCRtpTransceiverDirection | null;
  receiver: { track: MediaStreamTrack };
}

export function reusedTracks(
  transceivers: readonly ReceivingTransceiver[],
  feedHas: (mid: string, track: MediaStreamTrack) => boolean | null,
): Array<{ mid: string; track: MediaStreamTrack }> {
  const adopted: Array<{ mid: string; track: MediaStreamTrack }> = [];
  for (const { mid, currentDirection, receiver } of transceivers) {
    if (mid === null || (currentDirection !== 'recvonly' && currentDirection !== 'sendrecv')) continue;
    const track = receiver.track;
    if (track.readyState === 'ended') continue;
    // null: the mid belongs to no feed we follow (an inactive m-line, a feed gone)
    if (feedHas(mid, track) === false) adopted.push({ mid, track });
  }
  return adopted;
}
