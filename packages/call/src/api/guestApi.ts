/** The guest's service calls (docs/api.md "Guest-facing calls"), against the Lobby server's /api. */
import type {
  CallBugBody,
  CallReportAddBody,
  CallReportAdded,
  CallReportTimestampBody,
  CallReportUpdateBody,
  GuestAppointment,
  GuestRegistration,
  HoldCallBody,
  MediaGrant,
  UploadType,
} from '@lobby/contracts';
import { fetchFile, requestJson, uploadFile, type HttpOptions } from './http.ts';

/** The timestamps a guest marks on its call's report (PUT /call-report/update-timestamp). */
export type TimestampFlag = Exclude<keyof CallReportTimestampBody, 'call_id' | 'access_token'>;

export interface GuestApi {
  register(guestId: string, companyId?: number): Promise<GuestRegistration>;
  /** POST /call-report/media: the server creates the call's room and answers its pin and a Janus token. */
  /** `rejoin`: the call's media session was lost; the server makes the room again when Janus lost it */
  mediaGrant(callId: string, options?: { webview?: boolean; rejoin?: boolean; move?: boolean }): Promise<MediaGrant>;
  addReport(body: CallReportAddBody): Promise<CallReportAdded>;
  updateReport(body: CallReportUpdateBody): Promise<void>;
  /** Marks timestamps; `beacon` sends it so that it survives the tab closing. */
  updateTimestamp(callId: string, flags: TimestampFlag[], options?: { beacon?: boolean }): Promise<void>;
  callBug(body: CallBugBody): Promise<void>;
  /** POST /call-report/hold-call: the resumed call's new id, linked to the held and the first call. */
  holdCall(body: HoldCallBody): Promise<{ id: number }>;
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
    mediaGrant: (callId, { webview = false, rejoin = false, move = false } = {}) =>
      requestJson(
        options,
        'POST',
        '/call-report/media',
        { call_id: callId, ...(webview ? { webview } : {}), ...(rejoin ? { rejoin } : {}), ...(move ? { move } : {}) },
        { token },
      ),
    async updateReport(body) {
      await requestJson(options, 'PUT', '/call-report/update', body, { token });
    },
    async updateTimestamp(callId, flags, { beacon = false } = {}) {
      // the schema takes a string or no token (null would be a 400)
      const body: CallReportTimestampBody = { call_id: callId, ...(token ? { access_token: token } : {}) };
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
