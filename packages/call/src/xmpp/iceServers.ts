/**
 * ICE servers as RTCPeerConnection accepts them. StanzaJS builds XEP-0215 results into URLs such as
 * `stun:127.0.0.1:3478?transport=udp`, but a STUN URI has no transport parameter (RFC 7064) and the
 * browser then refuses to create the peer connection at all. TURN URIs keep theirs (RFC 7065).
 */
export function normalizeIceServers(servers: readonly RTCIceServer[]): RTCIceServer[] {
  const seen = new Set<string>();
  const out: RTCIceServer[] = [];
  for (const server of servers) {
    const urls = (Array.isArray(server.urls) ? server.urls : [server.urls])
      .filter((url): url is string => typeof url === 'string' && url.length > 0)
      .map((url) => (/^stuns?:/i.test(url) ? url.replace(/\?.*$/, '') : url))
      .filter((url) => /^(stuns?|turns?):/i.test(url));
    const fresh = urls.filter((url) => !seen.has(`${url}|${server.username ?? ''}`));
    fresh.forEach((url) => seen.add(`${url}|${server.username ?? ''}`));
    if (!fresh.length) continue;
    out.push({
      urls: fresh.length === 1 ? fresh[0]! : fresh,
      ...(server.username !== undefined ? { username: server.username } : {}),
      ...(server.credential !== undefined ? { credential: server.credential } : {}),
    });
  }
  return out;
}
