/**
 * What the notice says while the media server is unreachable (media/mediaHealth.ts): a dropped transport
 * with the media still flowing is "reconnecting" (the call goes on); with nothing arriving either, the
 * media server itself is gone and the picture frozen: "serverUnreachable".
 */
import { describe, expect, it } from 'vitest';
import { Emitter } from '../src/emitter.ts';
import { watchMediaHealth, type MediaNotice } from '../src/media/mediaHealth.ts';
import type { MediaEvents, MediaTransport } from '../src/ports/media.ts';

/** A transport that only tells its health, as the real one does (mediaSession.ts). */
class FakeHealth extends Emitter<MediaEvents> {
  tell<K extends keyof MediaEvents>(event: K, payload: MediaEvents[K]): void {
    this.emit(event, payload);
  }
}

function watched() {
  const media = new FakeHealth();
  const notices: MediaNotice[] = [];
  const { peerStalled } = watchMediaHealth(media as unknown as MediaTransport, {
    current: () => true,
    notice: (n) => notices.push(n),
    onLost: () => undefined,
  });
  return { media, notices, peerStalled };
}

describe('the media notice while Janus is unreachable', () => {
  it('when the transport drops and the media keeps flowing (the gate restarted), then reconnecting, then nothing', () => {
    const { media, notices } = watched();
    media.tell('reconnecting', { error: 'websocket closed' });
    media.tell('reconnected', undefined);
    expect(notices).toEqual(['reconnecting', null]);
  });

  it('when the transport drops and nothing arrives either (Janus down), then serverUnreachable until the media flows and the session is back', () => {
    const { media, notices, peerStalled } = watched();
    media.tell('reconnecting', { error: 'Lost connection to the server (is it down?)' });
    peerStalled(true);
    expect(notices.at(-1)).toBe('serverUnreachable');
    peerStalled(false);
    expect(notices.at(-1)).toBe('reconnecting');
    media.tell('reconnected', undefined);
    expect(notices.at(-1)).toBeNull();
  });
});
