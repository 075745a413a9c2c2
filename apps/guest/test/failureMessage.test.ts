import { describe, expect, it } from 'vitest';
import { failureBodyKey } from '../src/features/abandoned/failureMessage.ts';
import en from '../src/i18n/en.json';
import ar from '../src/i18n/ar.json';

describe('what a guest reads when a call failed', () => {
  it("when the media server is down or the session was lost, then the guest reads that (not 'check your internet')", () => {
    expect(failureBodyKey('mediaServerDown')).toBe('abandoned.failedMediaServerBody');
    expect(failureBodyKey('Error connecting to any of the provided Janus servers: Is the server down?')).toBe('abandoned.failedMediaServerBody');
    expect(failureBodyKey('Lost connection to the server (is it down?)')).toBe('abandoned.failedMediaServerBody');
    expect(failureBodyKey('mediaLost')).toBe('abandoned.failedMediaLostBody');
    expect(failureBodyKey('something else')).toBe('abandoned.failedBody');
  });

  it('when the guest\'s own connection stayed down through every ICE restart, then the guest is told to check its internet connection', () => {
    expect(failureBodyKey('iceFailed')).toBe('abandoned.failedBody');
    expect(en.abandoned.failedBody).toMatch(/internet/i);
  });

  it('when the microphone of a voice call was refused, then the guest is told to allow it', () => {
    expect(failureBodyKey('disabledMicrophone')).toBe('abandoned.failedMicrophoneBody');
    expect(en.abandoned.failedMicrophoneBody).toMatch(/microphone/i);
    expect(en.abandoned.failedMicrophoneBody).not.toMatch(/internet/i);
  });

  it('when a message is shown, then it exists in English and Arabic', () => {
    for (const key of ['failedMediaServerBody', 'failedMediaLostBody', 'failedMicrophoneBody'] as const) {
      expect(en.abandoned[key]).toBeTruthy();
      expect(ar.abandoned[key]).toMatch(/[\u0600-\u06FF]/);
    }
    for (const key of ['waitingForServer', 'reconnecting', 'networkReconnecting', 'peerReconnecting'] as const) {
      expect(en.mediaNotice[key]).toBeTruthy();
      expect(ar.mediaNotice[key]).toMatch(/[\u0600-\u06FF]/);
    }
  });

  it('when the network-quality indicator shows a level, then its word exists in English and Arabic', () => {
    for (const key of ['label', 'good', 'fair', 'poor', 'unknown', 'details'] as const) {
      expect(en.networkQuality[key]).toBeTruthy();
      expect(ar.networkQuality[key]).toMatch(/[\u0600-\u06FF]/);
    }
  });
});
