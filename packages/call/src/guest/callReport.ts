/**
 * The guest's call report and its call-bug reports (docs/protocol.md "Call report"): the report added when
 * the guest can wait for an agent, its timestamps as the call is initiated and answered, the report marked
 * failed with the failed connection's SDPs, and a call-bug report for a stage that failed (none for a p2p
 * call). The engine hands in its API and environment; the call's phase and stages are read when a bug is sent.
 */
import type { ReportStatus } from '@lobby/contracts';
import type { GuestApi } from '../api/guestApi.ts';
import { consoleBuffer } from '../consoleBuffer.ts';
import type { CallStage } from '../media/mediaSession.ts';
import type { EnvironmentPort, MediaTransport } from '../room/ports.ts';

export type CallMethod = 'p2p' | 'mediaServer';

export interface GuestReportOptions {
  api: Pick<GuestApi, 'addReport' | 'updateReport' | 'updateTimestamp' | 'callBug'>;
  environment: Pick<EnvironmentPort, 'userAgent'>;
  companyId: number;
  /** the company's call method as the page loaded it (a call's grant decides once it is there) */
  callMethod?: string | undefined;
  serviceType?: 'talk' | 'widget' | undefined;
  recordCalls?: boolean | undefined;
  /** the guest's position when the company asked for it */
  location?: (() => { latitude: string; longitude: string } | null) | undefined;
  /** what a call-bug report tells of the call */
  state: () => { phase: string; stages: Partial<Record<CallStage, boolean>> };
}

export class GuestReport {
  readonly #options: GuestReportOptions;
  /**
   * Each call's method, as its media grant said: the grant, not the company details the page loaded,
   * decides (an admin may switch the method while a guest's page is open).
   */
  readonly #methodOf = new Map<string, CallMethod>();
  /** the call whose answer was recorded (a resumed call has a new id and is answered again) */
  #answeredCallId: string | null = null;

  constructor(options: GuestReportOptions) {
    this.#options = options;
  }

  /** Adds the call's report (POST /call-report): ok, outOfQuota or blocked. */
  async add(callId: string, assignmentId: number, appointmentReference: string | null): Promise<ReportStatus> {
    const { api, companyId, serviceType, recordCalls } = this.#options;
    const report = await api.addReport({
      call_id: callId,
      company: companyId,
      source: 'site',
      assignment_id: assignmentId,
      ...(appointmentReference ? { appointment_reference: appointmentReference } : {}),
      ...(serviceType ? { service_type: serviceType } : {}),
      ...this.#locationField(),
      // the guest starts the call below the company's recording notice (the selection screen shows it
      // whenever the company records): that is its acknowledgement, stored with the call
      ...(recordCalls !== false ? { recording_acknowledged: true } : {}),
    });
    return report.status;
  }

  #locationField(): { location?: { latitude: string; longitude: string } } {
    const location = this.#options.location?.() ?? null;
    // the server takes plain decimal strings only (a position like 1e-7 is left out rather than refused)
    const decimal = /^-?[0-9]{1,3}(\.[0-9]+)?$/;
    return location && decimal.test(location.latitude) && decimal.test(location.longitude) ? { location } : {};
  }

  /** The call (or its resumed continuation) is initiated: its media is about to start. */
  async initiated(callId: string): Promise<void> {
    await this.#options.api.updateTimestamp(callId, ['call_initiated_timestamp']).catch(() => undefined);
  }

  /** A call taken back from the website's previous page was answered there: its answer is recorded. */
  alreadyAnswered(callId: string): void {
    this.#answeredCallId = callId;
  }

  /** An agent's media reached the guest: the first one answered the call (once per call id). */
  answered(callId: string, agent: string): void {
    if (this.#answeredCallId === callId) return;
    this.#answeredCallId = callId;
    const { api } = this.#options;
    void api.updateTimestamp(callId, ['call_answered_timestamp']).catch(() => undefined);
    void api.updateReport({ call_id: callId, agent }).catch(() => undefined);
  }

  /** The call's method, from its media grant. */
  setMethod(callId: string, method: CallMethod): void {
    this.#methodOf.set(callId, method);
  }

  /** A call stage failed: a call-bug report, with the app's last 110 console entries (consoleBuffer.ts), this failure last. */
  bug(callId: string, message: string): void {
    // no call-bug report for a p2p call (docs/protocol.md "p2p"; before its grant: the company's method)
    if ((this.#methodOf.get(callId) ?? this.#options.callMethod) === 'p2p') return;
    console.error(`call stage failed: ${message}`);
    const { phase, stages } = this.#options.state();
    void this.#options.api.callBug({
      call_id: callId,
      guest_log: JSON.stringify(consoleBuffer.entries()),
      guest_state: JSON.stringify({ phase, stages }),
      guest_client_info: this.#options.environment.userAgent(),
    });
  }

  /**
   * The report marked failed, with the SDPs of the connection that failed (ICE failure),
   * or the publisher's (lost session).
   */
  async failed(media: MediaTransport, callId: string, handle: 'publisher' | 'subscriber' | 'screen' = 'publisher'): Promise<void> {
    const pcs = media.peerConnections();
    const pc = pcs[handle] ?? pcs.publisher;
    await this.#options.api
      .updateReport({
        call_id: callId,
        success: false,
        guest_local_sdp: pc?.localDescription?.sdp ?? '',
        guest_remote_sdp: pc?.remoteDescription?.sdp ?? '',
      })
      .catch(() => undefined);
  }
}
