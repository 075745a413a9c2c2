/** A compact summary of RTCPeerConnection statistics: what proves that media flows. */
export interface MediaStatsSummary {
  inboundVideo: { framesDecoded: number; packetsReceived: number; frameWidth?: number }[];
  inboundAudio: { packetsReceived: number }[];
  outboundVideo: { framesEncoded: number; packetsSent: number }[];
  outboundAudio: { packetsSent: number }[];
}

export async function summarizeStats(pcs: (RTCPeerConnection | undefined)[]): Promise<MediaStatsSummary> {
  const out: MediaStatsSummary = { inboundVideo: [], inboundAudio: [], outboundVideo: [], outboundAudio: [] };
  for (const pc of pcs) {
    if (!pc) continue;
    const report = await pc.getStats();
    report.forEach((s: Record<string, unknown>) => {
      const num = (k: string) => Number(s[k] ?? 0);
      if (s.type === 'inbound-rtp' && s.kind === 'video') {
        out.inboundVideo.push({
          framesDecoded: num('framesDecoded'),
          packetsReceived: num('packetsReceived'),
          ...(s.frameWidth !== undefined ? { frameWidth: num('frameWidth') } : {}),
        });
      } else if (s.type === 'inbound-rtp' && s.kind === 'audio') {
        out.inboundAudio.push({ packetsReceived: num('packetsReceived') });
      } else if (s.type === 'outbound-rtp' && s.kind === 'video') {
        out.outboundVideo.push({ framesEncoded: num('framesEncoded'), packetsSent: num('packetsSent') });
      } else if (s.type === 'outbound-rtp' && s.kind === 'audio') {
        out.outboundAudio.push({ packetsSent: num('packetsSent') });
      }
    });
  }
  return out;
}
