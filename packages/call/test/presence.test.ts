import { describe, expect, it } from 'vitest';
import { decodePresenceStatus, encodePresenceStatus, joinStatus, presenceTarget } from '../src/presence.ts';

describe('presence status codec', () => {
  it('when a status is encoded, then it reads status|target|callId', () => {
    expect(encodePresenceStatus({ status: 'OpenCall', target: 'roundRobin', callId: 'gabc--x1' })).toBe(
      'OpenCall|roundRobin|gabc--x1',
    );
  });

  it('when target and call id are missing, then they are empty fields', () => {
    expect(encodePresenceStatus({ status: 'Away' })).toBe('Away||');
  });

  it('when encoded and decoded, then every status survives the round trip', () => {
    for (const status of ['InCall', 'OpenCall', 'Away', 'CallOnHold', 'CallResumed', 'TestNode'] as const) {
      const text = encodePresenceStatus({ status, target: 'agent@lobby.local', callId: 'g1--a' });
      expect(decodePresenceStatus(text)).toEqual({ status, target: 'agent@lobby.local', callId: 'g1--a' });
    }
  });

  it('when a field contains the separator, then encoding refuses it', () => {
    expect(() => encodePresenceStatus({ status: 'InCall', target: 'a|b', callId: 'c' })).toThrow(
      /must not contain/,
    );
  });

  it('when the text is empty, unknown or missing, then the status decodes as null without throwing', () => {
    expect(decodePresenceStatus('')).toEqual({ status: null, target: '', callId: '' });
    expect(decodePresenceStatus(undefined)).toEqual({ status: null, target: '', callId: '' });
    expect(decodePresenceStatus('Dancing|x|y')).toEqual({ status: null, target: 'x', callId: 'y' });
  });
});

describe('presence target', () => {
  it('when there is a peer, then the first peer JID wins over everything', () => {
    expect(
      presenceTarget({
        peers: [{ peerJID: 'a1@lobby.local' }, { peerJID: 'a2@lobby.local' }],
        appointmentAgent: 'Bob',
        roundRobin: true,
      }),
    ).toBe('a1@lobby.local');
  });

  it('when there is an appointment and no peer, then it is the agent username in lowercase', () => {
    expect(presenceTarget({ peers: [], appointmentAgent: 'Bob.Smith', roundRobin: true })).toBe('bob.smith');
  });

  it('when round robin is on and nothing else applies, then it is roundRobin', () => {
    expect(presenceTarget({ roundRobin: true })).toBe('roundRobin');
  });

  it('when nothing applies, then it is empty', () => {
    expect(presenceTarget({})).toBe('');
  });
});

describe('join status', () => {
  it('when the page is hidden on Android without notification permission, then Away', () => {
    expect(joinStatus({ pageHidden: true, isAndroid: true, notificationAllowed: false })).toBe('Away');
  });

  it('when any of the three does not hold, then OpenCall', () => {
    expect(joinStatus({ pageHidden: false, isAndroid: true, notificationAllowed: false })).toBe('OpenCall');
    expect(joinStatus({ pageHidden: true, isAndroid: false, notificationAllowed: false })).toBe('OpenCall');
    expect(joinStatus({ pageHidden: true, isAndroid: true, notificationAllowed: true })).toBe('OpenCall');
  });
});
