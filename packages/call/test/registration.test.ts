/**
 * The guest's registration module (src/guest/registration.ts) on its own: registering asked again on 503
 * only, the token renewed before it expires on the clock it is handed, and the appointment a link names.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/api/http.ts';
import { TokenRenewal, UNKNOWN_APPOINTMENT, lookUpAppointment, registerGuest } from '../src/guest/registration.ts';
import { FakeClock, createFakeGuestApi, settle } from './helpers/fakes.ts';

describe('guest registration module', () => {
  it('when registering answers 503 once, then it is asked again and the registration returned; a 409 is not asked again', async () => {
    const api = createFakeGuestApi('guest1');
    const register = api.register.bind(api);
    const asked: number[] = [];
    const failures = [new ApiError(503, 'rooms')];
    api.register = (guestId, companyId) => {
      asked.push(companyId ?? 0);
      const failure = failures.shift();
      return failure ? Promise.reject(failure) : register(guestId, companyId);
    };
    const registration = await registerGuest(api, 'guest-id-1', 7);
    expect(registration.username).toBe('guest1');
    expect(asked).toEqual([7, 7]);

    failures.push(new ApiError(409, 'company is not activated'));
    await expect(registerGuest(api, 'guest-id-1', 7)).rejects.toThrow('company is not activated');
    expect(asked).toEqual([7, 7, 7]);
  }, 10_000);

  it('when the token reaches 80 % of its life, then it is renewed, a failed renewal is tried again a minute later, and stop() ends it', async () => {
    const clock = new FakeClock();
    const outcomes: Array<'ok' | 'fail'> = ['fail', 'ok'];
    let renewals = 0;
    const renewal = new TokenRenewal(clock, () => {
      renewals++;
      return outcomes.shift() === 'fail' ? Promise.reject(new Error('offline')) : Promise.resolve({ expires_in: 1000 });
    });
    renewal.start(1000);
    clock.advance(799_000);
    await settle();
    expect(renewals).toBe(0);
    clock.advance(1000);
    await settle();
    expect(renewals).toBe(1); // failed
    clock.advance(59_000);
    await settle();
    expect(renewals).toBe(1);
    clock.advance(1000);
    await settle();
    expect(renewals).toBe(2); // a minute after the failure
    renewal.stop();
    clock.advance(10_000_000);
    await settle();
    expect(renewals).toBe(2);
  });

  it('when a link gives only the reference, then the appointment is looked up (agent lowercase); a complete one is not; an unknown one is UNKNOWN_APPOINTMENT', async () => {
    const looked: string[] = [];
    const api = {
      appointment: (reference: string) => {
        looked.push(reference);
        if (reference === 'nope') return Promise.reject(new ApiError(404, 'no appointment'));
        return Promise.resolve({ reference, id: 42, agentUsername: 'Agent1', startsAt: '', endsAt: '' } as never);
      },
    };
    expect(await lookUpAppointment(api, { reference: 'ref-1', id: '', agentUsername: '' })).toEqual({ reference: 'ref-1', id: '42', agentUsername: 'agent1' });
    const complete = { reference: 'ref-2', id: '9', agentUsername: 'agent2' };
    expect(await lookUpAppointment(api, complete)).toBe(complete);
    expect(looked).toEqual(['ref-1']);
    await expect(lookUpAppointment(api, { reference: 'nope', id: '', agentUsername: '' })).rejects.toThrow(UNKNOWN_APPOINTMENT);
    await expect(lookUpAppointment({}, { reference: 'ref-3', id: '', agentUsername: '' })).rejects.toThrow('not available');
  });
});
