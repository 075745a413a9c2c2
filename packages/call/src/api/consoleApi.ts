/** The console's service calls used by the call engine (the rest of the console API lives in the app). */
import { requestJson, uploadFile, type HttpOptions, type UploadType } from './http.ts';
import type { MediaGrant } from './guestApi.ts';
import { keepEventStream } from './eventStream.ts';

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
  /** round robin: where the call stands */
  routing?: CallRouting;
}

/** Round robin (docs/protocol.md): offered to one agent (until expiresAt), or open to all. */
export interface CallRouting {
  callId: string;
  assignmentId: number;
  state: 'offered' | 'open';
  offeredTo: string | null;
  expiresAt: string | null;
  /** the offer's length (offered only; absent from an older server) */
  offerSeconds?: number | null;
}

/** A call another agent hands to us (`event: callTransfer`). */
export interface IncomingTransfer {
  id: number;
  callId: string;
  room: string;
  guestUsername: string;
  fromName: string;
  fromJid: string;
}

export interface TransferEvents {
  onTransfer?: (transfer: IncomingTransfer) => void;
  onTransferAccepted?: (accepted: { id: number; callId: string; toJid: string }) => void;
}

export interface ConsoleApi {
  xmppToken(): Promise<XmppToken>;
  /** POST /console/calls/{callId}/media: the call's room, its pin and a Janus token (answering starts the recording). */
  mediaGrant(callId: string): Promise<MediaGrant>;
  rooms(): Promise<OpenCallRoom[]>;
  /**
   * Subscribes to calls opened in the agent's assignments (and, on the same stream, to round robin's
   * routing of them); returns the unsubscribe function.
   */
  onCallOpened(
    listener: (room: OpenCallRoom) => void,
    onRouting?: (routing: CallRouting) => void,
    onLive?: (live: boolean) => void,
    transfers?: TransferEvents,
  ): () => void;
  /** Transfer: hands our call to an agent or to an assignment's agents. */
  transfer?(callId: string, to: { toUserId: number } | { assignmentId: number }): Promise<{ id: number }>;
  /** Transfer: takes a call handed to us. */
  acceptTransfer?(id: number): Promise<{ id: number; callId: string; room: string; guestUsername: string }>;
  /** Transfer: who could take a call now. */
  transferTargets?(): Promise<{ agents: Array<{ id: number; name: string; jid: string }>; assignments: Array<{ id: number; name: string }> }>;
  /** Round robin: declines a call offered to this agent (it moves to the next one). */
  decline?(callId: string): Promise<void>;
  /** Round robin: whether this agent may be offered calls. */
  setAvailability?(availability: { availability: 'available' | 'away'; busy: boolean }): Promise<void>;
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
    mediaGrant: (callId) => requestJson(options, 'POST', `/console/calls/${encodeURIComponent(callId)}/media`, {}),
    upload: (type, file, companyId, guestUsername) =>
      uploadFile(options, type, file, companyId, guestUsername ? { guestUsername } : {}),
    rooms: async () => (await requestJson<{ rooms: OpenCallRoom[] }>(options, 'GET', '/console/rooms')).rooms,
    async decline(callId) {
      await requestJson(options, 'POST', `/console/calls/${encodeURIComponent(callId)}/decline`, {});
    },
    async setAvailability(availability) {
      await requestJson(options, 'POST', '/console/availability', availability);
    },
    transfer: (callId, to) => requestJson(options, 'POST', `/console/calls/${encodeURIComponent(callId)}/transfer`, to),
    acceptTransfer: (id) => requestJson(options, 'POST', `/console/transfers/${id}/accept`, {}),
    transferTargets: () => requestJson(options, 'GET', '/console/transfer-targets'),
    onCallOpened(listener, onRouting, onLive, transfers) {
      const Source = options.EventSource ?? globalThis.EventSource;
      const wire = (source: EventSource) => {
        const on = <T,>(name: string, fn: ((data: T) => void) | undefined) => {
          if (!fn) return;
          source.addEventListener(name, ((event: MessageEvent<string>) => {
            try {
              fn(JSON.parse(event.data) as T);
            } catch {
              // malformed: ignored; the next event or rooms() refresh carries the state
            }
          }) as EventListener);
        };
        on('callOpened', listener);
        on('callRouting', onRouting);
        on('callTransfer', transfers?.onTransfer);
        on('transferAccepted', transfers?.onTransferAccepted);
      };
      // live: the server knows this console is open (round robin offers calls only to open consoles)
      return keepEventStream(() => new Source(`${base}/console/events`, { withCredentials: true }), wire, (live) => onLive?.(live));
    },
  };
}

