/**
 * The guest's report module (src/guest/callReport.ts) on its own: what the report says when it is added,
 * the answer recorded once per call id, call-bug reports (none for a p2p call) and the report marked failed
 * with the SDPs of the connection that failed.
 */
import { describe, expect, it } from 'vitest';
import type { GuestApi } from '../src/api/guestApi.ts';
import { GuestReport, type GuestReportOptions } from '../src/guest/callReport.ts';
import { FakeEnvironment, createFakeGuestApi } from './helpers/fakes.ts';
import { TestMedia, sdpConnection } from './helpers/testMedia.ts';

function reportWith(options: Partial<GuestReportOptions> = {}) {
  const api = createFakeGuestApi('guest1');
  const added: Array<Parameters<GuestApi['addReport']>[0]> = [];
  api.addReport = (body) => {
    added.push(body);
    return Promise.resolve({ id: 1, status: api.reportStatus });
  };
  const report = new GuestReport({
    api,
    environment: new FakeEnvironment(),
    companyId: 3,
    state: () => ({ phase: 'waiting', stages: { joinRoom: true } }),
    ...options,
  });
  return { api, added, report };
}

describe('guest call report module', () => {
  it('when the call is reported, then it names the company, assignment and appointment, a decimal position only, and the recording notice unless the company does not record', async () => {
    let location = { latitude: '48.85', longitude: '2.35' };
    const { api, added, report } = reportWith({ location: () => location, serviceType: 'widget' });
    api.reportStatus = 'outOfQuota';
    expect(await report.add('call-1', 5, 'ref-1')).toBe('outOfQuota');
    expect(added[0]).toEqual({
      call_id: 'call-1',
      company: 3,
      source: 'site',
      assignment_id: 5,
      appointment_reference: 'ref-1',
      service_type: 'widget',
      location: { latitude: '48.85', longitude: '2.35' },
      recording_acknowledged: true,
    });
    location = { latitude: '1e-7', longitude: '2' };
    await report.add('call-2', 5, null);
    expect(added[1]).not.toHaveProperty('location');
    expect(added[1]).not.toHaveProperty('appointment_reference');

    const notRecorded = reportWith({ recordCalls: false });
    await notRecorded.report.add('call-3', 5, null);
    expect(notRecorded.added[0]).not.toHaveProperty('recording_acknowledged');
  });

  it('when agents answer, then the first answer of each call id is recorded (timestamp and agent) and a second is not', async () => {
    const { api, report } = reportWith();
    report.answered('call-1', 'agent1@lobby.test');
    report.answered('call-1', 'agent2@lobby.test');
    report.answered('call-2', 'agent1@lobby.test'); // resumed under a new id: answered again
    await Promise.resolve();
    expect(api.timestamps).toEqual([
      { callId: 'call-1', flags: ['call_answered_timestamp'] },
      { callId: 'call-2', flags: ['call_answered_timestamp'] },
    ]);
    expect(api.reports).toEqual([
      { call_id: 'call-1', agent: 'agent1@lobby.test' },
      { call_id: 'call-2', agent: 'agent1@lobby.test' },
    ]);
  });

  it('when a stage fails, then a call-bug report carries the phase, stages and the page\'s user agent; a p2p call (by its grant, else the company) sends none', () => {
    const { api, report } = reportWith({ callMethod: 'p2p' });
    report.bug('call-1', 'joinRoom: refused');
    expect(api.bugs).toEqual([]); // the company's method: p2p
    report.setMethod('call-1', 'mediaServer'); // the grant decides
    report.bug('call-1', 'joinRoom: refused');
    expect(api.bugs).toHaveLength(1);
    expect(api.bugs[0]).toMatchObject({
      call_id: 'call-1',
      guest_state: JSON.stringify({ phase: 'waiting', stages: { joinRoom: true } }),
      guest_client_info: 'fake',
    });
    report.setMethod('call-2', 'p2p');
    report.bug('call-2', 'x');
    expect(api.bugs).toHaveLength(1);
  });

  it('when the call fails, then the report is marked failed with the failed connection\'s SDPs, or the publisher\'s', async () => {
    const { api, report } = reportWith();
    const media = new TestMedia();
    media.connections = { publisher: sdpConnection('pub-local', 'pub-remote'), subscriber: sdpConnection('sub-local', 'sub-remote') };
    await report.failed(media.transport, 'call-1', 'subscriber');
    await report.failed(media.transport, 'call-1', 'screen');
    expect(api.reports).toEqual([
      { call_id: 'call-1', success: false, guest_local_sdp: 'sub-local', guest_remote_sdp: 'sub-remote' },
      { call_id: 'call-1', success: false, guest_local_sdp: 'pub-local', guest_remote_sdp: 'pub-remote' },
    ]);
  });
});
