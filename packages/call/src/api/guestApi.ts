/** The guest's service calls (SPEC.md §7), against the Lobby server's /api. */
import { fetchFile, requestJson, uploadFile, type HttpOptions, type UploadType } from './http.ts';

export interface GuestRoom {
  assignmentId: number;
  name: string;
  room: string;
}

export interface GuestRegistration {
  jabberusername: string;
  username: string;
  guestRooms: GuestRoom[];
  access_token: string;
  credential: string;
  expires_in: number;
}

export interface GuestAppointment {
  id: number;
  reference: string;
  agentUsername: string;
  startsAt: string;
}

export type ReportStatus = 'ok' | 'outOfQuota' | 'blocked';

export interface AddReportBody {
  call_id: string;
  company: number;
  source: 'site';
  appointment_reference?: string;
  assignment_id?: number;
  service_type?: 'talk' | 'widget';
  /** the guest's position (SPEC.md §3 strings) when the company asked for it */
  location?: { latitude: string; longitude: string };
  /** the guest started the call below the recording notice (stored with the call; docs/security.md) */
  recording_acknowledged?: boolean;
}

export type TimestampFlag =
  'call_initiated_timestamp' | 'call_answered_timestamp' | 'call_ended_timestamp' | 'guest_exit_timestamp';

/** A participant's way into its call's Janus room (docs/protocol.md "Media room"). */
export interface JanusGrant {
  room: string;
  pin: string;
  /** the Janus token for this room alone */
  token: string;
  expires_in: number;
}

/** The server's answer for a p2p company's call: no media room, a Jingle session instead (docs/protocol.md "p2p"). */
export type MediaGrant = JanusGrant | { method: 'p2p' };

export interface GuestApi {
  register(guestId: string, companyId?: number): Promise<GuestRegistration>;
  /** POST /call-report/media: the server creates the call's room and answers its pin and a Janus token. */
  mediaGrant(callId: string, options?: { webview?: boolean }): Promise<MediaGrant>;
  addReport(body: AddReportBody): Promise<{ id: number; status: ReportStatus }>;
  updateReport(body: { call_id: string } & Record<string, unknown>): Promise<void>;
  /** Marks timestamps; `beacon` sends it so that it survives the tab closing. */
  updateTimestamp(callId: string, flags: TimestampFlag[], options?: { beacon?: boolean }): Promise<void>;
  callBug(body: Record<string, unknown>): Promise<void>;
  /** POST /call-report/hold-call: the resumed call's new id, linked to the held and the first call. */
  holdCall(body: {
    origin_call_id: string;
    current_call_id: string;
    new_call_id: string;
    assignment_id?: number;
    guest_username?: string;
  }): Promise<{ id: number }>;
  /** GET /appointment/{reference}: the appointment of a guest link (id, agent's lowercase username, time). */
  appointment?(reference: string): Promise<GuestAppointment>;
  /** POST /upload/{type} for the chat; resolves with the file's URL. */
  upload(type: UploadType, file: Blob & { name?: string }, companyId: number): Promise<string>;
  /** GET a chat file (`/api/files/{id}`) with the guest's token; 403/404 throw an ApiError. */
  fetchFile(url: string): Promise<Blob>;
}

export function createGuestApi(options: HttpOptions = {}): GuestApi {
  let token: string | null = null;
  return {
    async register(guestId, companyId) {
      const registration = await requestJson<GuestRegistration>(options, 'POST', '/guest/register', {
        guestId,
        ...(companyId !== undefined ? { companyId } : {}),
      });
      token = registration.access_token;
      return registration;
    },
    addReport: (body) => requestJson(options, 'POST', '/call-report/add', body, { token }),
    mediaGrant: (callId, { webview = false } = {}) =>
      requestJson(options, 'POST', '/call-report/media', { call_id: callId, ...(webview ? { webview } : {}) }, { token }),
    async updateReport(body) {
      await requestJson(options, 'PUT', '/call-report/update', body, { token });
    },
    async updateTimestamp(callId, flags, { beacon = false } = {}) {
      const body: Record<string, unknown> = { call_id: callId, access_token: token };
      for (const flag of flags) body[flag] = true;
      if (beacon) {
        // a keepalive fetch outlives the page like a beacon does, and can use PUT
        await requestJson(options, 'PUT', '/call-report/update-timestamp', body, { keepalive: true }).catch(
          () => undefined,
        );
        return;
      }
      await requestJson(options, 'PUT', '/call-report/update-timestamp', body, { token });
    },
    appointment: (reference) =>
      requestJson(options, 'GET', `/appointment/${encodeURIComponent(reference)}`, undefined, { token }),
    holdCall: (body) => requestJson(options, 'POST', '/call-report/hold-call', body, { token }),
    upload: (type, file, companyId) => uploadFile(options, type, file, companyId, { token }),
    fetchFile: (url) => fetchFile(options, url, { token }),
    async callBug(body) {
      await requestJson(options, 'POST', '/call-bug/by-guest', body, { token }).catch(() => undefined);
    },
  };
}
