/**
 * The desk joining a call's media (answer, transfer, supervisor join, resume after hold): the camera
 * starts while the media grant is asked and the session set up, the call's transport is chosen (Janus, or
 * the guest's p2p Jingle session), and the guest's camera leaving ends the call, unless its page said it
 * is being replaced (docs/widget.md "Moving between pages"): then only if none of its media is back within
 * NAVIGATION_RETURN_MS. The desk hands in its ports, its call room and its other features.
 */
import type { AgentDeskOptions, AgentSnapshot } from './deskSnapshot.ts';
import type { CallPorts } from '../ports/callPorts.ts';
import type { SignallingPort } from '../ports/signalling.ts';
import type { CallRoom, FeedHooks } from '../room/callRoom.ts';
import { isP2PGrant, transportFor } from '../room/p2pCall.ts';
import { ICE_FAILED, MEDIA_LOST, MEDIA_SERVER_DOWN, claimAfterRefusedMove, grantWithRetry, lostCode } from '../media/mediaHealth.ts';
import type { MediaTransport } from '../ports/media.ts';
import type { MediaGrant } from '@lobby/contracts';
import type { RoomPresence } from '../xmpp/session.ts';
import { NAVIGATION_RETURN_MS } from './reconnection.ts';

export type LeaveReason = 'agent' | 'guest' | 'error' | 'transferred';

export interface MediaJoinOptions {
  ports: CallPorts;
  options: Pick<AgentDeskOptions, 'api' | 'janusServers' | 'videoConstraints'>;
  room: CallRoom;
  nick: () => string;
  read: () => AgentSnapshot;
  write: (patch: Partial<AgentSnapshot>) => void;
  presenceOf: (room: string, nick: string) => RoomPresence | null;
  /** the call whose guest last said Navigating (its page is being replaced) */
  guestNavigating: () => string | null;
  /** the navigating guest's camera left: its page went (the agent is told: guestPageChange.ts) */
  guestPageGone: () => void;
  /** a transfer's taker's feed arrived: the first agent hands over */
  feedAdded: () => void;
  leaveCall: (reason: LeaveReason) => Promise<void>;
}

/** Joins a call's Janus room (pin in lowercase) and publishes camera and microphone. */
export async function joinCallMedia(
  o: MediaJoinOptions,
  callId: string,
  video: boolean,
  guestNick: string,
  xmpp: SignallingPort,
): Promise<void> {
  const activeCallId = () => o.read().activeCall?.callId ?? null;
  // The camera starts while the media session is set up and joined (as a bare janus.js client
  // does): the subscription to the guest begins at join and need not wait for our own devices.
  const gum = o.ports.devices.getUserMedia({
    // a voice call stays a voice call on both sides
    video,
    ...(o.options.videoConstraints ? { videoConstraints: o.options.videoConstraints } : {}),
  });
  gum.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled
  // the call's room, its pin and our Janus token come from the server (docs/protocol.md "Media room")
  const grant = await o.options.api.mediaGrant(callId);
  // p2p (docs/protocol.md "p2p"): we take the Jingle session of the call's guest, and no one else's
  const room = o.read().activeCall?.room ?? '';
  const guestJid = o.presenceOf(room, guestNick)?.jid ?? '';
  const call: CallOfMedia = { callId, video, guestNick, xmpp, guestJid: guestJid.split('/')[0]! };
  const { media, transport } = openCallMedia(o, grant, call, false);
  // p2p: the guest opens its session toward this console tab once told where it is; at once (the
  // guest's offer travels while our camera opens; the session is accepted once we publish), but a
  // transfer's taker only once published: the first agent hands over on this answer
  const answer = () => {
    if (isP2PGrant(grant) && xmpp.jingle && activeCallId() === callId)
      xmpp.sendControl(room, { action: 'answer', callId, peer: xmpp.jingle.self });
  };
  const early = !o.read().activeCall?.transferred;
  const published = await o.room.joinAndPublish(media, {
    connected: early ? answer : undefined,
    room: transport.room,
    display: o.read().jid ?? o.nick(),
    stream: gum,
    video,
  });
  if (published && activeCallId() === callId) {
    if (!early) answer();
    o.write({ phase: 'inCall' });
  }
}

/** What the call's media was joined with, kept for a rejoin after its session is lost. */
interface CallOfMedia {
  callId: string;
  video: boolean;
  guestNick: string;
  xmpp: SignallingPort;
  /** the guest's bare JID (p2p: the only Jingle session taken) */
  guestJid: string;
}

/**
 * Opens the transport a grant names, and follows the guest's camera leaving and Janus's end
 * (`rejoining`: it replaces a lost session).
 */
function openCallMedia(
  o: MediaJoinOptions,
  grant: MediaGrant,
  call: CallOfMedia,
  rejoining: boolean,
): { media: MediaTransport; transport: ReturnType<typeof transportFor> } {
  const { callId, guestNick } = call;
  const activeCallId = () => o.read().activeCall?.callId ?? null;
  const transport = transportFor(
    grant,
    callId,
    { servers: o.options.janusServers, xmpp: call.xmpp },
    { role: 'responder', expect: call.guestJid, expectDisplay: guestNick },
  );
  const media = o.room.open(transport.options, {
    feedAdded: o.feedAdded,
    health: { ...mediaHealth(o, call), ...(rejoining ? { rejoining } : {}) },
  });
  media.on('publisherLeft', ({ feedId, display }) => {
    if (!o.room.isCurrent(media) || display !== guestNick) return;
    // the guest's previous page's camera going after its next page's came: the guest is here
    if (o.read().remoteFeeds.some((feed) => feed.display === guestNick && feed.feedId !== feedId)) return;
    if (o.guestNavigating() !== callId) {
      void o.leaveCall('guest');
      return;
    }
    // its page is being replaced: the call ends only if none of its media is back in time
    o.guestPageGone();
    o.ports.clock.setTimeout(() => {
      if (activeCallId() !== callId) return;
      if (!o.read().remoteFeeds.some((feed) => feed.display === guestNick)) void o.leaveCall('guest');
    }, NAVIGATION_RETURN_MS);
  });
  media.on('destroyed', () => {
    if (o.room.isCurrent(media)) void o.leaveCall('guest');
  });
  return { media, transport };
}

/**
 * Janus answered without the call's session (it restarted): the call goes on in a new one — a new grant
 * (`rejoin`: the server makes the room again, docs/protocol.md "Media session lost"), a new session,
 * joined and published with the same camera. A rejoin that fails (Janus still down after every attempt,
 * the room closed) ends the call as a lost session did.
 */
async function rejoinCallMedia(o: MediaJoinOptions, lost: MediaTransport, call: CallOfMedia, error: string): Promise<void> {
  console.warn(`media: Janus lost the call's session (${error}): rejoining with a new one`);
  let grant: MediaGrant;
  try {
    grant = await grantWithRetry(() => o.options.api.mediaGrant(call.callId, { rejoin: true }), {
      stopIf: () => !o.room.isCurrent(lost),
      // the picture is frozen meanwhile, as the lost session's notice said
      notice: () => o.write({ mediaNotice: 'serverUnreachable' }),
    });
  } catch (failure) {
    if (o.room.isCurrent(lost)) rejoinFailed(o, failure);
    return;
  }
  await rejoinWith(o, lost, call, grant);
}

/**
 * Janus stayed unreachable through a few claims of the call's session (media/mediaHealth.ts
 * MOVE_AFTER_CLAIMS): its node may be dead for good. One grant with `rejoin`, and the server moves the room
 * to a node that answers (docs/protocol.md "Media session lost"): the call goes on in a new session there,
 * as after a restart, even when a claim succeeded meanwhile (the room, and the guest with it, may be on the
 * new node now). The server could not place the room (503): the claims go on. Resolves whether it moved.
 */
async function moveCallMedia(o: MediaJoinOptions, lost: MediaTransport, call: CallOfMedia, error: string): Promise<boolean> {
  let grant: MediaGrant;
  try {
    grant = await o.options.api.mediaGrant(call.callId, { rejoin: true, move: true });
  } catch (failure) {
    console.warn(`media: the call cannot move to a new session yet (${String(failure)}): claiming on`);
    claimAfterRefusedMove(lost, failure);
    return false;
  }
  if (!o.room.isCurrent(lost)) return false;
  console.warn(`media: Janus unreachable (${error}): the call moves to a new session`);
  void rejoinWith(o, lost, call, grant);
  return true;
}

/** The call goes on in a new session of `grant` after `lost`; failing, the call ends as a lost session did. */
async function rejoinWith(o: MediaJoinOptions, lost: MediaTransport, call: CallOfMedia, grant: MediaGrant): Promise<void> {
  if (!o.room.isCurrent(lost)) return;
  let media = lost;
  try {
    const opened = openCallMedia(o, grant, call, true);
    media = opened.media;
    await o.room.rejoin(lost, media, { room: opened.transport.room, display: o.read().jid ?? o.nick(), video: call.video });
  } catch (failure) {
    if (o.room.isCurrent(media)) rejoinFailed(o, failure);
  }
}

function rejoinFailed(o: MediaJoinOptions, failure: unknown): void {
  const reason = failure instanceof Error && failure.message === MEDIA_SERVER_DOWN ? MEDIA_SERVER_DOWN : MEDIA_LOST;
  console.error(`media: rejoining failed: ${String(failure)}`);
  void o.leaveCall('error').then(() => o.write({ error: reason }));
}

/**
 * Janus lost the call's session: restarted (it answered without it), the call rejoins with a new one;
 * unreachable through a few claims, it moves to a new session where the server placed the room again;
 * still unreachable after every claim (the room could not move), the call ends with MEDIA_SERVER_DOWN as
 * its error; our own connection stayed down through every ICE restart: it ends with ICE_FAILED.
 */
function mediaHealth(o: MediaJoinOptions, call: CallOfMedia): NonNullable<FeedHooks['health']> {
  return {
    notice: (mediaNotice) => o.write({ mediaNotice }),
    onRejoin: (error, media) => void rejoinCallMedia(o, media, call, error),
    onUnreachable: (error, media) => moveCallMedia(o, media, call, error),
    // MEDIA_SERVER_DOWN while Janus is still unreachable (a restarted one, answering without the session, is rejoined)
    onLost: (error) => void o.leaveCall('error').then(() => o.write({ error: lostCode(error) })),
    onIceFailed: () => void o.leaveCall('error').then(() => o.write({ error: ICE_FAILED })),
    quality: (networkQuality) => o.write({ networkQuality }),
  };
}
