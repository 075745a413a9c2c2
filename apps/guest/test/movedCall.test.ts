// A call moved from the website's panel into a new window (↗, docs/widget.md "Into a new window"): the
// window's call page adopts the panel's guest id and call from its address fragment before anything reads
// them, and takes the call back with resume=1.
import { afterEach, describe, expect, it } from 'vitest';
import { adoptMovedCall, movedCallFragment, movedGuestId, type MovedCall } from '../src/features/widget/movedCall.ts';
import { takeCarriedCall } from '../src/features/widget/carriedCall.ts';

const WIDGET = '/?service=widget&origin=https%3A%2F%2Fshop.example.com';
const moved: MovedCall = {
  callId: 'gabc--1',
  initialCallId: 'gabc--1',
  answered: true,
  kind: 'video',
  assignmentId: 3,
  reportId: 42,
  companyId: 1,
  guestId: '0123456789abcdef0123456789abcdef',
};

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  history.replaceState(null, '', '/');
});

describe('a call moved into the widget\u2019s new window', () => {
  it('when the window opens with a moved call, then it takes the panel\u2019s guest id for itself only and the call, and its address says resume=1 without the fragment', () => {
    localStorage.setItem('guestId', 'ffffffffffffffffffffffffffffffff');
    history.replaceState(null, '', `${WIDGET}#${movedCallFragment(moved)}`);
    expect(adoptMovedCall()).toBe(true);
    expect(movedGuestId()).toBe(moved.guestId);
    // the visitor's own Lobby guest id is not replaced
    expect(localStorage.getItem('guestId')).toBe('ffffffffffffffffffffffffffffffff');
    expect(location.hash).toBe('');
    expect(new URLSearchParams(location.search).get('resume')).toBe('1');
    const { guestId: _guestId, ...call } = moved;
    expect(takeCarriedCall(1)).toMatchObject(call);
  });

  it('when the fragment carries a malformed guest id, then nothing is adopted and the fragment is dropped', () => {
    history.replaceState(null, '', `${WIDGET}#${movedCallFragment({ ...moved, guestId: '../other' })}`);
    expect(adoptMovedCall()).toBe(false);
    expect(movedGuestId()).toBeNull();
    expect(sessionStorage.length).toBe(0);
    expect(location.hash).toBe('');
    expect(new URLSearchParams(location.search).get('resume')).toBeNull();
  });

  it('when the page is not the widget\u2019s, then a fragment is left alone', () => {
    history.replaceState(null, '', `/#${movedCallFragment(moved)}`);
    expect(adoptMovedCall()).toBe(false);
    expect(movedGuestId()).toBeNull();
  });
});
