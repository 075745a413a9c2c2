import { describe, expect, it } from 'vitest';
import { START_BITRATE_KBPS, withStartBitrate } from '../src/media/startBitrate.ts';

// the shape of Janus's answer to a publisher's offer (audio, then VP8 video with rtx)
const ANSWER = [
  'v=0',
  'o=- 1 1 IN IP4 127.0.0.1',
  's=VideoRoom 1',
  't=0 0',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111',
  'a=rtpmap:111 opus/48000/2',
  'a=fmtp:111 useinbandfec=1',
  'm=video 9 UDP/TLS/RTP/SAVPF 96 97 102',
  'a=rtpmap:96 VP8/90000',
  'a=rtpmap:97 rtx/90000',
  'a=fmtp:97 apt=96',
  'a=rtpmap:102 H264/90000',
  'a=fmtp:102 profile-level-id=42e01f;packetization-mode=1',
  'a=rtcp-fb:96 nack',
  '',
].join('\r\n');

describe('withStartBitrate', () => {
  it("when Janus answers a publisher, then each video codec of the answer starts at the set rate, and nothing else changes", () => {
    const sdp = withStartBitrate(ANSWER);
    const lines = sdp.split('\r\n');
    // VP8 had no fmtp line: it gets one; H264's gets the parameter appended
    expect(lines).toContain(`a=fmtp:96 x-google-start-bitrate=${START_BITRATE_KBPS}`);
    expect(lines).toContain(`a=fmtp:102 profile-level-id=42e01f;packetization-mode=1;x-google-start-bitrate=${START_BITRATE_KBPS}`);
    // rtx and audio are left alone, the SDP still ends with CRLF, and the lines stay in their sections
    expect(lines).toContain('a=fmtp:97 apt=96');
    expect(lines).toContain('a=fmtp:111 useinbandfec=1');
    expect(sdp.endsWith('\r\n')).toBe(true);
    expect(lines.indexOf(`a=fmtp:96 x-google-start-bitrate=${START_BITRATE_KBPS}`)).toBeGreaterThan(lines.indexOf('m=video 9 UDP/TLS/RTP/SAVPF 96 97 102'));
    expect(sdp.match(/x-google-start-bitrate/g)).toHaveLength(2);
  });

  it('when the answer has no video, or already names a start rate, then it is returned as it was', () => {
    const audioOnly = ANSWER.slice(0, ANSWER.indexOf('m=video'));
    expect(withStartBitrate(audioOnly)).toBe(audioOnly);
    const once = withStartBitrate(ANSWER);
    expect(withStartBitrate(once)).toBe(once);
  });
});
