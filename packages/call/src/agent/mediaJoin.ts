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
import { ICE_FAILED, lostCode } from '../media/mediaHealth.ts';
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
  const transport = transportFor(
    grant,
    callId,
    { servers: o.options.janusServers, xmpp },
    { role: 'responder', expect: guestJid.split('/')[0]!, expectDisplay: guestNick },
  );
  const media = o.room.open(transport.options, { feedAdded: o.feedAdded, health: mediaHealth(o) });
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

/**
 * Janus lost the call's session (restarted or crashed): the call ends with MEDIA_LOST as its error;
 * our own connection stayed down through every ICE restart: it ends with ICE_FAILED.
 */
function mediaHealth(o: MediaJoinOptions): FeedHooks['health'] {
  return {
    notice: (mediaNotice) => o.write({ mediaNotice }),
    // MEDIA_LOST when Janus came back without the session (restarted), MEDIA_SERVER_DOWN while it is still unreachable
    onLost: (error) => void o.leaveCall('error').then(() => o.write({ error: lostCode(error) })),
    onIceFailed: () => void o.leaveCall('error').then(() => o.write({ error: ICE_FAILED })),
    quality: (networkQuality) => o.write({ networkQuality }),
  };
}
