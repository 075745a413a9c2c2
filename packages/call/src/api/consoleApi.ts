/** The console's service calls used by the call engine (the rest of the console API lives in the app). */
import type {
  CallRoutingInfo,
  ConsoleAvailabilityBody,
  ConsoleRooms,
  IncomingTransfer,
  MediaGrant,
  MediaStandbyAnswer,
  OpenCall,
  TransferAccepted,
  TransferBody,
  TransferTargets,
  UploadType,
  XmppToken,
} from '@lobby/contracts';
import { requestJson, uploadFile, type HttpOptions } from './http.ts';
import { keepEventStream } from './eventStream.ts';

/**
 * A call room the agent is in: an open call as the server lists it (GET /console/rooms, `callOpened`),
 * or, for a call handed to us, what the transfer told (its room, guest and call id).
 */
export type OpenCallRoom = Pick<OpenCall, 'room' | 'assignmentId' | 'guestUsername' | 'callId'> &
  Partial<Pick<OpenCall, 'assignmentName' | 'reportId' | 'openedAt' | 'routing'>>;

export interface TransferEvents {
  onTransfer?: (transfer: IncomingTransfer) => void;
  onTransferAccepted?: (accepted: TransferAccepted) => void;
}

export interface ConsoleApi {
  xmppToken(): Promise<XmppToken>;
  /**
   * POST /console/media/standby: a Janus token of this agent for no room, to make the next answer's media
   * session while calls wait (media/standby.ts); optional: without it, the answer makes its own. A p2p
   * company's agents get `{ method: 'p2p' }` instead (their calls never touch the media server), and every
   * console `{ standby: 'off' }` where the deployment keeps no standby sessions (LOBBY_MEDIA_STANDBY).
   */
  mediaStandby?(): Promise<MediaStandbyAnswer>;
  /** POST /console/calls/{callId}/media: the call's room, its pin and a Janus token (answering starts the recording). */
  /** `rejoin`: the call's media session was lost; the server makes the room again when Janus lost it */
  mediaGrant(callId: string, options?: { rejoin?: boolean; move?: boolean }): Promise<MediaGrant>;
  rooms(): Promise<OpenCall[]>;
  /**
   * Subscribes to calls opened in the agent's assignments (and, on the same stream, to round robin's
   * routing of them); returns the unsubscribe function.
   */
  onCallOpened(
    listener: (room: OpenCall) => void,
    onRouting?: (routing: CallRoutingInfo) => void,
    onLive?: (live: boolean) => void,
    transfers?: TransferEvents,
    /** `resync`: the server may have missed events of its other instances; the rooms are to be listed again */
    onResync?: () => void,
  ): () => void;
  /** Transfer: hands our call to an agent or to an assignment's agents. */
  transfer?(callId: string, to: TransferBody): Promise<{ id: number }>;
  /** Transfer: takes a call handed to us. */
  acceptTransfer?(id: number): Promise<{ id: number; callId: string; room: string; guestUsername: string }>;
  /** Transfer: who could take a call now. */
  transferTargets?(): Promise<TransferTargets>;
  /** Round robin: declines a call offered to this agent (it moves to the next one). */
  decline?(callId: string): Promise<void>;
  /** Round robin: whether this agent may be offered calls. */
  setAvailability?(availability: ConsoleAvailabilityBody): Promise<void>;
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
    mediaStandby: () => requestJson(options, 'POST', '/console/media/standby', {}),
    mediaGrant: (callId, { rejoin = false, move = false } = {}) =>
      requestJson(options, 'POST', `/console/calls/${encodeURIComponent(callId)}/media${rejoin ? `?rejoin=true${move ? '&move=true' : ''}` : ''}`, {}),
    upload: (type, file, companyId, guestUsername) =>
      uploadFile(options, type, file, companyId, guestUsername ? { guestUsername } : {}),
    rooms: async () => (await requestJson<ConsoleRooms>(options, 'GET', '/console/rooms')).rooms,
    async decline(callId) {
      await requestJson(options, 'POST', `/console/calls/${encodeURIComponent(callId)}/decline`, {});
    },
    async setAvailability(availability) {
      await requestJson(options, 'POST', '/console/availability', availability);
    },
    transfer: (callId, to) => requestJson(options, 'POST', `/console/calls/${encodeURIComponent(callId)}/transfer`, to),
    acceptTransfer: (id) => requestJson(options, 'POST', `/console/transfers/${id}/accept`, {}),
    transferTargets: () => requestJson(options, 'GET', '/console/transfer-targets'),
    onCallOpened(listener, onRouting, onLive, transfers, onResync) {
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
        on('resync', onResync && (() => onResync()));
      };
      // live: the server knows this console is open (round robin offers calls only to open consoles)
      return keepEventStream(() => new Source(`${base}/console/events`, { withCredentials: true }), wire, (live) => onLive?.(live));
    },
  };
}

