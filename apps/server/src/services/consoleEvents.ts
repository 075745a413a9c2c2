import {
  CONSOLE_EVENT_CALL_OPENED,
  CONSOLE_EVENT_CALL_ROUTING,
  CONSOLE_EVENT_CALL_TRANSFER,
  CONSOLE_EVENT_RESYNC,
  CONSOLE_EVENT_TRANSFER_ACCEPTED,
  CONSOLE_EVENT_WALLBOARD,
} from '@lobby/contracts';
import type { IncomingTransfer, OpenCall, TransferAccepted } from '@lobby/contracts';
import { seesOpenedCall, seesRouting, seesTransfer, seesTransferAccepted, visibleAssignments } from './callVisibility.ts';
import type { Viewer } from './callVisibility.ts';
import type { Services } from './index.ts';
import { routingInfo } from './routingInfo.ts';

const HEARTBEAT_MS = 15_000;

export interface ConsoleEventsOptions {
  /** the session the stream belongs to: the stream ends when it is logged out or expires */
  sessionHash: string;
  /** one server-sent event, or a comment (`: heartbeat`) */
  write(chunk: string): void;
  /** the stream is over (session gone, or end() called): close the response */
  close(): void;
  warn(err: unknown): void;
}

/**
 * A console user's event stream (GET /api/console/events): the calls it sees opened, where they stand in
 * round robin, the transfers for it (services/callVisibility.ts decides which). An agent with the stream
 * open takes part in round robin; supervisors and admins do not get offers (they see a round-robin call
 * once it is open to all). Subscribes at once (nothing published after the call is missed); answers the
 * function that ends the stream. The viewer (callVisibility.ts viewerOf) is read when the stream opens;
 * the heartbeat refreshes the assignments it sees (those it serves for transfers stay as they were).
 * `present` resolves once round robin counts the agent as present (its row is written).
 */
export function openConsoleEvents(services: Services, viewer: Viewer, o: ConsoleEventsOptions): { end: () => void; present: Promise<void> } {
  const { repos, events, roundRobin } = services;
  const { user } = viewer;
  const write = (chunk: string) => o.write(chunk);
  const send = (event: string, data: unknown) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

  const unsubscribe = [
    events.subscribe('callOpened', (e) => {
      if (!seesOpenedCall(viewer, e) || e.assignmentId === null || e.room === null) return;
      const data: OpenCall = {
        room: e.room,
        assignmentId: e.assignmentId,
        assignmentName: e.assignmentName ?? '',
        guestUsername: e.guestUsername,
        callId: e.callId,
        reportId: e.reportId,
        openedAt: new Date(e.openedAt).toISOString(),
      };
      send(CONSOLE_EVENT_CALL_OPENED, data);
    }),
    events.subscribe('callRouting', (r) => {
      if (seesRouting(viewer, r)) send(CONSOLE_EVENT_CALL_ROUTING, routingInfo(r));
    }),
    events.subscribe('callTransfer', (e) => {
      if (!seesTransfer(viewer, e)) return;
      const data: IncomingTransfer = { id: e.id, callId: e.callId, room: e.room, guestUsername: e.guestUsername, fromName: e.fromName, fromJid: e.fromJid };
      send(CONSOLE_EVENT_CALL_TRANSFER, data);
    }),
    events.subscribe('transferAccepted', (e) => {
      if (!seesTransferAccepted(viewer, e)) return;
      const data: TransferAccepted = { id: e.id, callId: e.callId, toJid: e.toJid };
      send(CONSOLE_EVENT_TRANSFER_ACCEPTED, data);
    }),
    // the wall board of supervisors and admins (console Wallboard): its figures changed
    events.subscribe('callStats', (e) => {
      if (e.companyId === user.companyId && user.role !== 'agent') send(CONSOLE_EVENT_WALLBOARD, {});
    }),
    // this instance may have missed events of the others (services/pgEventBus.ts): the console reloads its rooms
    events.subscribe('resync', () => send(CONSOLE_EVENT_RESYNC, {})),
  ];
  // an agent is present on this instance while the stream is open (round robin reads its assignments live)
  const joined =
    user.role === 'agent'
      ? roundRobin.connect({ userId: user.id, companyId: user.companyId, xmppUsername: user.xmppUsername }).catch((err: unknown) => {
          o.warn(err);
          return null;
        })
      : Promise.resolve(null);
  const leaveRotation = () =>
    void joined
      .then((leave) => leave?.())
      .catch((err: unknown) => o.warn(err));

  // Heartbeat; also ends the stream when the session was logged out or expired, and refreshes assignments.
  const heartbeat = setInterval(() => {
    void (async () => {
      try {
        const still = await repos.users.sessionUser(o.sessionHash, services.now());
        if (!still) return end();
        viewer.visible = new Set(await visibleAssignments(repos, still));
        write(': heartbeat\n\n');
      } catch (err) {
        o.warn(err);
      }
    })();
  }, HEARTBEAT_MS);
  heartbeat.unref();

  let ended = false;
  function end() {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    for (const off of unsubscribe) off();
    leaveRotation();
    o.close();
  }
  return { end, present: joined.then(() => undefined) };
}
