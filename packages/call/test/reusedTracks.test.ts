/** media/reusedTracks.ts: which receiving tracks a subscription hands to a feed that took over their m-line. */
import { describe, expect, it } from 'vitest';
import { reusedTracks, type ReceivingTransceiver } from '../src/media/reusedTracks.ts';

const track = (id: string, readyState: MediaStreamTrackState = 'live') => ({ id, kind: 'video', readyState }) as unknown as MediaStreamTrack;
const transceiver = (mid: string | null, t: MediaStreamTrack, currentDirection: RTCRtpTransceiverDirection | null = 'recvonly'): ReceivingTransceiver => ({
  mid,
  currentDirection,
  receiver: { track: t },
});

describe('reusedTracks', () => {
  it('when a departed feed\'s mids now belong to a new feed without their tracks, then those tracks are handed to it', () => {
    const audio = track('a0');
    const video = track('v1');
    // mids 0 and 1 were the first agent's; the answer gave them to the new agent, whose stream is empty
    const feedHas = () => false;
    expect(reusedTracks([transceiver('0', audio), transceiver('1', video)], feedHas)).toEqual([
      { mid: '0', track: audio },
      { mid: '1', track: video },
    ]);
  });

  it('when a feed already has its track (a fresh m-line fired its track event), then nothing is handed twice', () => {
    const owned = track('v');
    expect(reusedTracks([transceiver('0', owned)], (_mid, t) => t === owned)).toEqual([]);
  });

  it('when an m-line is inactive, ended, unnegotiated or no feed\'s, then its track is left alone', () => {
    const feedHas = (mid: string) => (mid === '3' ? null : false);
    expect(
      reusedTracks(
        [
          transceiver('0', track('x'), 'inactive'),
          transceiver('1', track('y', 'ended')),
          transceiver(null, track('z')),
          transceiver('3', track('w')),
        ],
        feedHas,
      ),
    ).toEqual([]);
  });
});
