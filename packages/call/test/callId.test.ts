import { describe, expect, it } from 'vitest';
import { guestUsernameOf, isCallIdOf, newCallId, roomPin } from '../src/callId.ts';

describe('call ids', () => {
  it('when a call id is made, then it is username--suffix and its username part is the guest', () => {
    const id = newCallId('g0123abcd');
    expect(id).toMatch(/^g0123abcd--[a-z0-9]+$/);
    expect(guestUsernameOf(id)).toBe('g0123abcd');
    expect(isCallIdOf(id, 'g0123abcd')).toBe(true);
  });

  it('when two call ids are made for one guest, then they differ', () => {
    expect(newCallId('g1')).not.toBe(newCallId('g1'));
  });

  it('when the username part is another guest, then the call id is not theirs', () => {
    expect(isCallIdOf('g2--abc', 'g1')).toBe(false);
    expect(isCallIdOf('g1x--abc', 'g1')).toBe(false);
  });

  it('when the suffix is empty, too long or has odd characters, then it is refused', () => {
    expect(isCallIdOf('g1--', 'g1')).toBe(false);
    expect(isCallIdOf(`g1--${'a'.repeat(65)}`, 'g1')).toBe(false);
    expect(isCallIdOf('g1--a b', 'g1')).toBe(false);
    expect(isCallIdOf('g1--a|b', 'g1')).toBe(false);
    expect(() => newCallId('g1', 'bad suffix')).toThrow();
  });

  it('when the username itself contains --, then no call id is made for it', () => {
    expect(() => newCallId('g--1')).toThrow();
    expect(isCallIdOf('g--1--abc', 'g--1')).toBe(false);
  });

  it('when there is no separator, then the whole text is the username part', () => {
    expect(guestUsernameOf('plain')).toBe('plain');
    expect(guestUsernameOf('a--b--c')).toBe('a');
  });

  it('when a room pin is made, then it is the call id in lowercase', () => {
    expect(roomPin('gAB--XyZ')).toBe('gab--xyz');
  });
});
