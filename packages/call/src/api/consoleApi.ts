/** The console's service calls used by the call engine (the rest of the console API lives in the app). */
import { requestJson, uploadFile, type HttpOptions, type UploadType } from './http.ts';

export interface XmppToken {
  jid: string;
  credential: string;
  expires_in: number;
}

export interface OpenCallRoom {
  room: string;
  assignmentId: number;
  assignmentName?: string;
  guestUsername: string;
  callId: string;
  reportId?: number;
  openedAt?: string;
}

export interface ConsoleApi {
  xmppToken(): Promise<XmppToken>;
  rooms(): Promise<OpenCallRoom[]>;
  /** Subscribes to calls opened in the agent's assignments; returns the unsubscribe function. */
  onCallOpened(listener: (room: OpenCallRoom) => void): () => void;
  /**
   * POST /upload/{type} for the chat (session cookie); `guestUsername` is the call's guest, who may then
   * read the file too. Resolves with the file's URL.
   */
  upload?(type: UploadType, file: Blob & { name?: string }, companyId: number, guestUsername?: string): Promise<string>;
}

export function createConsoleApi(
  options: HttpOptions & { EventSource?: typeof EventSource } = {},
): ConsoleApi {
  const base = options.baseUrl ?? '/api';
  return {
    xmppToken: () => requestJson(options, 'POST', '/console/xmpp-token', {}),
    upload: (type, file, companyId, guestUsername) =>
      uploadFile(options, type, file, companyId, guestUsername ? { guestUsername } : {}),
    rooms: async () => (await requestJson<{ rooms: OpenCallRoom[] }>(options, 'GET', '/console/rooms')).rooms,
    onCallOpened(listener) {
      const Source = options.EventSource ?? globalThis.EventSource;
      const source = new Source(`${base}/console/events`, { withCredentials: true });
      const onMessage = (event: MessageEvent<string>) => {
        try {
          listener(JSON.parse(event.data) as OpenCallRoom);
        } catch {
          // a malformed event is ignored; the next rooms() refresh still lists the call
        }
      };
      source.addEventListener('callOpened', onMessage as EventListener);
      return () => source.close();
    },
  };
}
