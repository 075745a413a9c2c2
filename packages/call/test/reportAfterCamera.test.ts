/**
 * The call's report is made only once the guest can really wait for an agent: its camera and microphone
 * are open (docs/guest-journey.md "Rules"). A refused camera makes no report, so Reports never count it
 * as an abandoned call.
 */
import { describe, expect, it } from 'vitest';
import { DisabledCameraError } from '../src/media/devices.ts';
import { FakeWorld, settle } from './helpers/fakes.ts';
import { guestReady } from './helpers/participants.ts';

async function guestCounted(world: FakeWorld) {
  const ready = await guestReady(world);
  const added: string[] = [];
  const { api } = ready;
  const addReport = api.addReport.bind(api);
  api.addReport = (body) => {
    added.push(body.call_id);
    return addReport(body);
  };
  return { ...ready, added };
}

describe('the call report and the camera', () => {
  it('when the guest refuses the camera, then no report is made, nothing is stamped and the call fails as disabledCamera', async () => {
    const world = new FakeWorld();
    const { guest, api, ports, added } = await guestCounted(world);
    ports.devices.getUserMedia = () => Promise.reject(new DisabledCameraError(new DOMException('denied', 'NotAllowedError')));

    await expect(guest.call('video')).rejects.toThrow('disabledCamera');
    await settle();

    expect(guest.snapshot.phase).toBe('failed');
    expect(guest.snapshot.error).toBe('disabledCamera');
    expect(added).toEqual([]);
    expect(api.timestamps).toEqual([]);
    expect(api.grants).toEqual([]);
    expect(api.bugs).toEqual([]);
  });

  it('when the camera opens, then the report is made, and the guest waits', async () => {
    const world = new FakeWorld();
    const { guest, added, ports } = await guestCounted(world);
    await guest.call('video');
    await settle();
    expect(ports.devices.requests).toHaveLength(1);
    expect(added).toEqual([guest.snapshot.callId]);
    expect(guest.snapshot.phase).toBe('waiting');
  });

  it('when the report says outOfQuota after the camera opened, then the camera is stopped', async () => {
    const world = new FakeWorld();
    const { guest, api, ports } = await guestCounted(world);
    api.reportStatus = 'outOfQuota';
    expect(await guest.call('video')).toBe('outOfQuota');
    expect(guest.snapshot.phase).toBe('outOfQuota');
    expect(guest.snapshot.localStream).toBeNull();
    expect(ports.devices.streams.every((s) => s.stopped)).toBe(true);
  });
});
