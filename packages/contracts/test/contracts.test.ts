import { Value } from '@sinclair/typebox/value';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CallReportAddBody,
  CompanyDetails,
  CompanySettings,
  GuestRegisterBody,
  MESSAGE_KEYS,
  companyDefaults,
  guestRoomName,
  parseCallId,
  withCompanyDefaults,
} from '../src/index.ts';

describe('company details', () => {
  it('when the defaults are checked against the schema, then they are valid and carry the documented defaults', () => {
    expect(Value.Check(CompanySettings, companyDefaults)).toBe(true);
    expect(companyDefaults).toMatchObject({
      callMethod: 'mediaServer',
      callType: 'userSelect',
      language: 'multilingual',
      recordCalls: true,
      backgroundColor: '#707070',
      streamWatermark: 'hidden',
    });
    for (const k of MESSAGE_KEYS) {
      expect(companyDefaults).toHaveProperty(k);
      expect(companyDefaults).toHaveProperty(`${k}_ar`);
    }
  });

  it('when stored settings are partial or carry unknown keys, then defaults fill in and unknown keys are dropped', () => {
    const s = withCompanyDefaults({ language: 'arabic', nope: 1 });
    expect(s.language).toBe('arabic');
    expect(s.recordCalls).toBe(true);
    expect(s).not.toHaveProperty('nope');
    const details = { ...s, id: 18, activated: true, name: 'x', host: 'h', assignments: [], assignmentGroups: [], forms: { welcome: null, rating: null } };
    expect(Value.Check(CompanyDetails, details)).toBe(true);
  });
});

describe('call ids', () => {
  it('when a call id is <username>--<suffix>, then the username is the part before the first --', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^g[0-9a-f]{16}$/), fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/), (username, suffix) => {
        expect(parseCallId(`${username}--${suffix}`)).toEqual({ username, suffix });
        expect(Value.Check(CallReportAddBody, { call_id: `${username}--${suffix}`, company: 1, source: 'site' })).toBe(true);
      }),
    );
  });

  it('when a call id has no separator, an empty side or bad characters, then it does not parse', () => {
    for (const id of ['gabc', '--x', 'g0123456789abcdef--', 'g0123456789abcdef--a b', `g0123456789abcdef--${'x'.repeat(65)}`]) {
      expect(parseCallId(id)).toBeNull();
    }
  });

  it('when a room name is built, then it is a<assignment>-<username>', () => {
    expect(guestRoomName(7, 'g0123456789abcdef')).toBe('a7-g0123456789abcdef');
  });
});

describe('guest id', () => {
  it('when the id is 32 lowercase hex characters, then it is valid; dashes or capitals are not', () => {
    expect(Value.Check(GuestRegisterBody, { guestId: '0123456789abcdef0123456789abcdef' })).toBe(true);
    expect(Value.Check(GuestRegisterBody, { guestId: '01234567-89ab-cdef-0123-456789abcdef' })).toBe(false);
    expect(Value.Check(GuestRegisterBody, { guestId: '0123456789ABCDEF0123456789ABCDEF' })).toBe(false);
  });
});
