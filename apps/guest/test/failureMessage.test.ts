import { describe, expect, it } from 'vitest';
import { GATEWAY_MESSAGES, failureBodyKey } from '../src/features/abandoned/failureMessage.ts';
import en from '../src/i18n/en.json';
import ar from '../src/i18n/ar.json';

/** The gateway messages of docs/protocol.md "Error messages", word for word ({code} {reason} filled in). */
const JANUS_MESSAGES = [
  'Library not initialized',
  'WebRTC not supported by this browser',
  'Invalid server url',
  'Is the server down? (connected=false)',
  'Lost connection to the server (is it down?)',
  'Error connecting to any of the provided Janus servers: Is the server down?',
  'Invalid plugin',
  'Ooops: 433 Unauthorized access',
  'Failed to destroy the server: Is the server down?',
  'Probably a network error, is the server down?',
  'Request timed out',
  'Failed to parse response body',
  'API call failed',
];

function text(catalogue: typeof en, key: string): string {
  const [group, name] = key.split('.') as ['abandoned', keyof typeof en.abandoned];
  return catalogue[group][name];
}

describe('what a guest reads when a call failed', () => {
  it("when the media server is down or the session was lost, then the guest reads that (not 'check your internet')", () => {
    expect(failureBodyKey('mediaServerDown')).toBe('abandoned.failedMediaServerBody');
    expect(failureBodyKey('Error connecting to any of the provided Janus servers: Is the server down?')).toBe(
      'abandoned.failedMediaServerBody',
    );
    expect(failureBodyKey('Lost connection to the server (is it down?)')).toBe(
      'abandoned.failedMediaServerBody',
    );
    expect(failureBodyKey('mediaLost')).toBe('abandoned.failedMediaLostBody');
    expect(failureBodyKey('something else')).toBe('abandoned.failedBody');
  });

  it('when the guest\'s own connection stayed down through every ICE restart, then the guest is told to check its internet connection', () => {
    expect(failureBodyKey('iceFailed')).toBe('abandoned.failedBody');
    expect(en.abandoned.failedBody).toMatch(/internet/i);
  });

  it('when a p2p call never reached the agent who answered (every Jingle session-initiate failed), then the guest reads that, not "check your internet"', () => {
    expect(failureBodyKey('p2pUnreachable')).toBe('abandoned.failedAgentUnreachableBody');
    expect(en.abandoned.failedAgentUnreachableBody).toMatch(/agent/i);
    expect(en.abandoned.failedAgentUnreachableBody).not.toMatch(/internet/i);
  });

  it('when the microphone of a voice call was refused, then the guest is told to allow it', () => {
    expect(failureBodyKey('disabledMicrophone')).toBe('abandoned.failedMicrophoneBody');
    expect(en.abandoned.failedMicrophoneBody).toMatch(/microphone/i);
    expect(en.abandoned.failedMicrophoneBody).not.toMatch(/internet/i);
  });

  it('when any of the gateway messages ends a call, then the guest reads its own text in English and Arabic, never the message', () => {
    expect(GATEWAY_MESSAGES.map((m) => m.message.replace('{code} {reason}', ''))).toHaveLength(
      JANUS_MESSAGES.length,
    );
    for (const message of JANUS_MESSAGES) {
      const key = failureBodyKey(message);
      const mapped = GATEWAY_MESSAGES.find((m) => m.pattern.test(message));
      expect(mapped, message).toBeTruthy();
      expect(key, message).toBe(mapped?.key);
      expect(text(en, key), key).toBeTruthy();
      expect(text(en, key)).not.toContain(message);
      expect(text(ar as typeof en, key), key).toMatch(/[\u0600-\u06FF]/);
    }
    // the same message with the engine's detail appended reads the same
    expect(failureBodyKey('Error: Request timed out (ws://127.0.0.1/janus)')).toBe(
      'abandoned.failedSlowBody',
    );
    expect(
      failureBodyKey(
        'Error connecting to any of the provided Janus servers: Is the server down? (Request timed out (ws://x))',
      ),
    ).toBe('abandoned.failedMediaServerBody');
    expect(failureBodyKey('WebRTC not supported by this browser')).toBe('abandoned.failedBrowserBody');
    expect(failureBodyKey('Library not initialized')).toBe('abandoned.failedReloadBody');
    expect(failureBodyKey('Ooops: 490 No such room')).toBe('abandoned.failedServiceBody');
  });

  it('when a message is shown, then it exists in English and Arabic', () => {
    for (const key of [
      'failedMediaServerBody',
      'failedMediaLostBody',
      'failedMicrophoneBody',
      'failedBrowserBody',
      'failedReloadBody',
      'failedServiceBody',
      'failedSlowBody',
      'failedAgentUnreachableBody',
    ] as const) {
      expect(en.abandoned[key]).toBeTruthy();
      expect(ar.abandoned[key]).toMatch(/[\u0600-\u06FF]/);
    }
    for (const key of ['waitingForServer', 'reconnecting', 'networkReconnecting', 'peerReconnecting'] as const) {
      expect(en.mediaNotice[key]).toBeTruthy();
      expect(ar.mediaNotice[key]).toMatch(/[\u0600-\u06FF]/);
    }
  });
});
