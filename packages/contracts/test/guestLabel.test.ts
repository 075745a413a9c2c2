/**
 * The one label agents know a guest by (src/guestLabel.ts), shared by the queue, the call area, Reports,
 * Recordings and the server's answers.
 */
import { describe, expect, it } from 'vitest';
import { guestCode, guestLabel, guestNameAnswer } from '../src/guestLabel.ts';

describe('guestLabel', () => {
  it('when the guest gave a name, then that name is its label, trimmed', () => {
    expect(guestLabel('g4bf8db1a8bcf98a4', '  Mona Haddad ')).toBe('Mona Haddad');
  });

  it('when the guest gave no name (none, empty or blank), then it is "Guest" and the last four characters of its username, upper case', () => {
    for (const name of [null, undefined, '', '   ']) expect(guestLabel('g4bf8db1a8bcf98a4', name)).toBe('Guest 98A4');
    expect(guestCode('g4bf8db1a8bcf98a4')).toBe('98A4');
  });

  it('when the console words the fallback in its language, then the code is the same', () => {
    expect(guestLabel('g4bf8db1a8bcf98a4', null, (code) => `ضيف ${code}`)).toBe('ضيف 98A4');
  });
});

describe('guestNameAnswer', () => {
  it('when the welcome form has a name, full_name or fullName answer, then it is the name; other keys, blanks and non-text are not', () => {
    expect(guestNameAnswer({ email: 'a@b.c', name: ' Sara ' })).toBe('Sara');
    expect(guestNameAnswer({ full_name: 'Sara Nasser' })).toBe('Sara Nasser');
    expect(guestNameAnswer({ FullName: 'Sara N' })).toBe('Sara N');
    expect(guestNameAnswer({ nickname: 'S', name: '  ' })).toBeNull();
    expect(guestNameAnswer({ name: 5 })).toBeNull();
  });
});
