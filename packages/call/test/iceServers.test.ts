import { describe, expect, it } from 'vitest';
import { normalizeIceServers } from '../src/xmpp/iceServers.ts';

describe('ICE servers from XEP-0215', () => {
  it('when a STUN URL carries a transport, then it is dropped (browsers reject it)', () => {
    expect(normalizeIceServers([{ urls: 'stun:127.0.0.1:3478?transport=udp' }])).toEqual([
      { urls: 'stun:127.0.0.1:3478' },
    ]);
  });

  it('when a TURN URL carries a transport, then it keeps it with its credentials', () => {
    const turn = { urls: 'turn:127.0.0.1:3478?transport=tcp', username: '123:g1', credential: 'secret' };
    expect(normalizeIceServers([turn])).toEqual([turn]);
  });

  it('when the same STUN server comes twice (udp and tcp), then it is listed once', () => {
    expect(
      normalizeIceServers([{ urls: 'stun:h:3478?transport=udp' }, { urls: 'stun:h:3478?transport=tcp' }]),
    ).toEqual([{ urls: 'stun:h:3478' }]);
  });

  it('when a URL has another scheme or is empty, then it is left out', () => {
    expect(normalizeIceServers([{ urls: ['http://x', ''] }, { urls: 'turns:h:5349' }])).toEqual([
      { urls: 'turns:h:5349' },
    ]);
  });
});
