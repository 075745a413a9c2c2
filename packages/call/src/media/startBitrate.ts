/**
 * The send rate a new publisher starts at (issue 16, "Answer → first frame").
 *
 * Chromium starts every peer connection's bandwidth estimate at 300 kbit/s, and its video encoder drops
 * the first frames of a picture bigger than 640×480 below 500 kbit/s (libwebrtc VideoStreamEncoder
 * `DropDueToSize`, up to four frames) and asks for a smaller one. Our cameras open at up to 1440×1080, so
 * an agent who had just answered sent its first frame ≈ 150–250 ms after its connection was up, and the
 * guest waited for it (bench/call-setup.ts --timeline). Janus's answer to our publisher's offer gets
 * `x-google-start-bitrate` on its video codecs, which Chromium reads from the remote description: the
 * estimate starts there and the first frames go out at once. 800 kbit/s is the start Jitsi Meet has long
 * used (`startBitrate`); the estimate adapts from it within a second either way.
 */
export const START_BITRATE_KBPS = 800;

/** The SDP with `x-google-start-bitrate` on every video payload type (added to its fmtp line, or a new one). */
export function withStartBitrate(sdp: string, kbps: number = START_BITRATE_KBPS): string {
  const eol = sdp.includes('\r\n') ? '\r\n' : '\n';
  const ended = sdp.endsWith(eol);
  const lines = (ended ? sdp.slice(0, -eol.length) : sdp).split(eol);
  // sections: the session part, then one per m= line
  const sections: string[][] = [[]];
  for (const line of lines) {
    if (line.startsWith('m=')) sections.push([]);
    sections[sections.length - 1]!.push(line);
  }
  const out = sections.flatMap((section) => (section[0]?.startsWith('m=video ') ? videoSection(section, kbps) : section));
  return out.join(eol) + (ended ? eol : '');
}

function videoSection(section: string[], kbps: number): string[] {
  // retransmission and FEC streams carry no picture of their own
  const types = section
    .map((line) => /^a=rtpmap:(\d+) ([^/]+)\//.exec(line))
    .filter((m): m is RegExpExecArray => !!m && !/^(rtx|red|ulpfec|flexfec-03)$/i.test(m[2]!))
    .map((m) => m[1]!);
  const withFmtp = new Set<string>();
  const out = section.map((line) => {
    const fmtp = /^a=fmtp:(\d+) /.exec(line);
    if (!fmtp || !types.includes(fmtp[1]!)) return line;
    withFmtp.add(fmtp[1]!);
    return line.includes('x-google-start-bitrate') ? line : `${line};x-google-start-bitrate=${kbps}`;
  });
  for (const pt of types) if (!withFmtp.has(pt)) out.push(`a=fmtp:${pt} x-google-start-bitrate=${kbps}`);
  return out;
}
