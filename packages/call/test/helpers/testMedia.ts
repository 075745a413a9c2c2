/** A media transport whose events a test fires itself (a feature module's own test needs no media server). */
import { Emitter } from '../../src/emitter.ts';
import type { MediaEvents } from '../../src/ports/media.ts';
import type { MediaTransport } from '../../src/room/ports.ts';
import type { CallStatus } from '../../src/state/callStatus.ts';
import { deferred } from './fakes.ts';

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

/**
 * The call room's hold as a hold test sees it: the status changes and the room is told at once, and the
 * media teardown (`holding`, which a resume waits for) ends when the test resolves `teardown`.
 */
export function heldRoom(state: { status: CallStatus }) {
  const teardown = deferred<void>();
  const room = {
    holding: Promise.resolve(),
    hold: (update: (s: CallStatus) => CallStatus, announce: () => void) => {
      state.status = update(state.status);
      announce();
      room.holding = teardown.promise;
      return teardown.promise;
    },
  };
  return { room, teardown };
}
