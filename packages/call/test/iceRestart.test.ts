/**
 * The ICE restart of one peer connection (media/iceRestart.ts) on a fake clock: when it restarts, how
 * often it tries again, when it gives up.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, settle } from './helpers/fakes.ts';
import { DISCONNECTED_GRACE_MS, IceRestarter, RESTART_GIVE_UP_MS, RESTART_RETRY_MS } from '../src/media/iceRestart.ts';

function restarter(restart: () => Promise<void> = () => Promise.resolve()) {
  const clock = new FakeClock();
  const events: string[] = [];
  let restarts = 0;
  const ice = new IceRestarter({
    clock,
    restart: () => {
      restarts++;
      return restart();
    },
    onRestarting: () => events.push('restarting'),
    onRecovered: () => events.push('recovered'),
    onFailed: () => events.push('failed'),
  });
  return { clock, events, ice, restarts: () => restarts };
}

describe('ICE restart', () => {
  it('when disconnected comes back within the grace, then nothing is restarted', () => {
    const { clock, events, ice, restarts } = restarter();
    ice.onState('disconnected');
    clock.advance(DISCONNECTED_GRACE_MS - 1);
    ice.onState('connected');
    clock.advance(DISCONNECTED_GRACE_MS * 5);
    expect(restarts()).toBe(0);
    expect(events).toEqual([]);
  });

  it('when disconnected lasts past the grace, then one restart is made and recovery is told once connected', async () => {
    const { clock, events, ice, restarts } = restarter();
    ice.onState('disconnected');
    clock.advance(DISCONNECTED_GRACE_MS);
    await settle();
    expect(restarts()).toBe(1);
    expect(events).toEqual(['restarting']);
    ice.onState('checking');
    ice.onState('connected');
    clock.advance(RESTART_RETRY_MS * 3);
    await settle();
    expect(restarts()).toBe(1);
    expect(events).toEqual(['restarting', 'recovered']);
  });

  it('when failed, then a restart is made at once', async () => {
    const { events, ice, restarts } = restarter();
    ice.onState('failed');
    await settle();
    expect(restarts()).toBe(1);
    expect(events).toEqual(['restarting']);
  });

  it('when a restart does not bring the connection back (its request unanswered), then another follows every retry time', async () => {
    const { clock, ice, restarts } = restarter(() => Promise.reject(new Error('Request timed out (configure)')));
    ice.onState('failed');
    await settle();
    for (let i = 0; i < 3; i++) {
      clock.advance(RESTART_RETRY_MS);
      await settle();
    }
    expect(restarts()).toBe(4);
    ice.onState('connected');
    clock.advance(RESTART_RETRY_MS * 3);
    await settle();
    expect(restarts()).toBe(4);
  });

  it('when failed again during a restart, then the next attempt comes within a second', async () => {
    const { clock, ice, restarts } = restarter();
    ice.onState('failed');
    await settle();
    ice.onState('checking');
    ice.onState('failed');
    clock.advance(1000);
    await settle();
    expect(restarts()).toBe(2);
  });

  it('when no restart brings it back for the give-up time, then it has failed for good and stops trying', async () => {
    const { clock, events, ice, restarts } = restarter();
    ice.onState('failed');
    await settle();
    for (let t = 0; t < RESTART_GIVE_UP_MS; t += RESTART_RETRY_MS) {
      clock.advance(RESTART_RETRY_MS);
      await settle();
    }
    expect(events).toEqual(['restarting', 'failed']);
    const made = restarts();
    expect(made).toBe(RESTART_GIVE_UP_MS / RESTART_RETRY_MS);
    clock.advance(RESTART_RETRY_MS * 5);
    ice.onState('failed');
    await settle();
    expect(restarts()).toBe(made);
  });

  it('when stopped (hang-up) during the grace, then no restart is made', async () => {
    const { clock, ice, restarts } = restarter();
    ice.onState('disconnected');
    ice.stop();
    clock.advance(DISCONNECTED_GRACE_MS * 2);
    await settle();
    expect(restarts()).toBe(0);
  });
});
