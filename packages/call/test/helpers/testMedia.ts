/** A media transport whose events a test fires itself (a feature module's own test needs no media server). */
import { Emitter } from '../../src/emitter.ts';
import type { MediaEvents } from '../../src/media/mediaSession.ts';
import type { MediaTransport } from '../../src/room/ports.ts';

export class TestMedia extends Emitter<MediaEvents> {
  /** the peer connections `peerConnections()` gives (SDPs for the report) */
  connections: ReturnType<MediaTransport['peerConnections']> = {};
  fire<K extends keyof MediaEvents>(event: K, payload: MediaEvents[K]): void {
    this.emit(event, payload);
  }
  peerConnections(): ReturnType<MediaTransport['peerConnections']> {
    return this.connections;
  }
  /** as the engines' modules see it */
  get transport(): MediaTransport {
    return this as unknown as MediaTransport;
  }
}

/** A peer connection with just its SDPs. */
export function sdpConnection(local: string, remote: string): RTCPeerConnection {
  return { localDescription: { sdp: local }, remoteDescription: { sdp: remote } } as unknown as RTCPeerConnection;
}
