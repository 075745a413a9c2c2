/**
 * The guest's call media: the media grant (asked again while Janus is down), the transport it names
 * (Janus, or a p2p Jingle session), joining and publishing through the call room, and what only the guest
 * follows of its media — the agents' feeds (the first one answers the call), the stages (call-bug reports),
 * the agents leaving, Janus's end, and the session lost: Janus restarted, the call rejoins with a new grant
 * and session (docs/protocol.md "Media session lost"); Janus unreachable through a few claims, the call
 * moves to a new session where the server placed the room again; still down, or the rejoin failed, the
 * report is marked failed and the call ends with the reason shown (media/mediaHealth.ts). The engine hands
 * in its API, its call room and its other features.
 */
import type { GuestApi } from '../api/guestApi.ts';
import { ICE_FAILED, MEDIA_LOST, MEDIA_SERVER_DOWN, claimAfterRefusedMove, grantWithRetry, lostCode, type MediaNotice } from '../media/mediaHealth.ts';
import type { RemoteFeed } from '../media/mediaSession.ts';
import type { NetworkQuality } from '../media/networkQuality.ts';
import type { WatermarkOptions } from '../media/watermark.ts';
import type { CallRoom, FeedHooks } from '../room/callRoom.ts';
import { P2P_UNREACHABLE, isP2PGrant, transportFor } from '../room/p2pCall.ts';
import type { MediaTransport, SignallingPort } from '../room/ports.ts';
import type { MediaGrant } from '@lobby/contracts';
import type { RoomOptions } from '../ports/media.ts';
import { peerJoined, type CallStatus } from '../state/callStatus.ts';
import type { AgentsInCall } from './agentsInCall.ts';
import type { GuestReport } from './callReport.ts';
import type { CallStage } from '../media/mediaSession.ts';
import type { CallKind } from '../presence.ts';

/** What the call's media reads and writes of the engine's snapshot. */
export interface MediaCallView {
  phase: string;
  callId: string | null;
  status: CallStatus;
  stages: Partial<Record<CallStage, boolean>>;
}

export interface MediaCallPatch {
  status?: CallStatus;
  remoteFeeds?: RemoteFeed[];
  phase?: 'ongoing';
  stages?: Partial<Record<CallStage, boolean>>;
  mediaNotice?: MediaNotice;
  networkQuality?: NetworkQuality;
}

export interface GuestCallMediaOptions {
  api: Pick<GuestApi, 'mediaGrant'>;
  janusServers: string[];
  webview: boolean;
  watermark: WatermarkOptions | null;
  room: CallRoom;
  report: GuestReport;
  agents: AgentsInCall;
  read: () => MediaCallView;
  write: (patch: MediaCallPatch) => void;
  /** our presence names the call's (first) agent anew */
  announce: () => void;
  /** p2p: the agent's Jingle session-info <hold/> holds the call like its hold control */
  held: (peer: string) => void;
  /** p2p: the agent who answered waits for a session that never comes: the end control tells it */
  sendEnd: (callId: string) => void;
  /** the call failed with `code` (the guest app shows why): it ends */
  fail: (callId: string, code: string) => Promise<void>;
}

/** What a call's media is joined with, kept for a rejoin after its session is lost. */
interface JoinPlan {
  callId: string;
  kind: CallKind;
  username: string;
  xmpp: SignallingPort;
}

export class GuestCallMedia {
  readonly #options: GuestCallMediaOptions;

  constructor(options: GuestCallMediaOptions) {
    this.#options = options;
  }

  /** Creates the call's Janus room, joins it and publishes (docs/protocol.md "Media session" 1–2). */
  async start(callId: string, kind: CallKind, localStream: MediaStream, username: string, xmpp: SignallingPort): Promise<void> {
    const { api, read, write, room, report } = this.#options;
    // the server creates the call's room and hands us its pin and a Janus token (docs/protocol.md)
    // while Janus is down the server cannot make the room: asked again, the guest told
    const grant = await grantWithRetry(() => api.mediaGrant(callId, { webview: this.#options.webview }), {
      stopIf: () => read().callId !== callId || read().phase === 'ended',
      notice: (mediaNotice) => write({ mediaNotice }),
    });
    // a p2p company's call: a Jingle session toward the agent who answers (docs/protocol.md "p2p")
    report.setMethod(callId, isP2PGrant(grant) ? 'p2p' : 'mediaServer');
    const plan: JoinPlan = { callId, kind, username, xmpp };
    const { media, room: mediaRoom } = this.#open(grant, plan, false);
    // the engine's teardown (a hang-up meanwhile) takes the media from the room and closes it: it stops there
    await room.joinAndPublish(media, {
      room: mediaRoom,
      display: username,
      stream: Promise.resolve(localStream),
      video: kind === 'video',
      watermark: this.#options.watermark,
      connected: () => write({ status: { ...read().status, connection: { ...read().status.connection, janus: true } } }),
      waitVisible: true,
    });
  }

  /** Opens the transport a grant names, its feeds and health followed (`rejoining`: it replaces a lost one). */
  #open(grant: MediaGrant, plan: JoinPlan, rejoining: boolean): { media: MediaTransport; room: RoomOptions } {
    const transport = transportFor(grant, plan.callId, { servers: this.#options.janusServers, xmpp: plan.xmpp }, { role: 'initiator' });
    const media = this.#options.room.open(transport.options, {
      peerFeed: (feed) => this.#onAgentFeed(feed, plan.callId),
      health: { ...this.#health(plan), ...(rejoining ? { rejoining } : {}) },
    });
    this.#follow(media, plan.callId);
    return { media, room: transport.room };
  }

  /**
   * Janus answered without the call's session (it restarted): the call goes on in a new one — a new grant
   * (`rejoin`: the server makes the room again, docs/protocol.md "Media session lost"), a new session,
   * joined and published with the same camera; the same call id, room and report. The notice says the
   * picture is frozen meanwhile; a rejoin that fails (Janus still down after every attempt, the room
   * closed) fails the call as a lost session did.
   */
  async #rejoin(lost: MediaTransport, plan: JoinPlan, error: string): Promise<void> {
    const { api, read, write, room } = this.#options;
    console.warn(`media: Janus lost the call's session (${error}): rejoining with a new one`);
    let grant: MediaGrant;
    try {
      grant = await grantWithRetry(() => api.mediaGrant(plan.callId, { webview: this.#options.webview, rejoin: true }), {
        stopIf: () => !room.isCurrent(lost) || read().callId !== plan.callId,
        // the picture is frozen meanwhile, as the lost session's notice said
        notice: () => write({ mediaNotice: 'serverUnreachable' }),
      });
    } catch (failure) {
      if (room.isCurrent(lost)) await this.#rejoinFailed(lost, plan, error, failure);
      return;
    }
    await this.#rejoinWith(lost, plan, grant, error);
  }

  /**
   * Janus stayed unreachable through a few claims of the call's session (media/mediaHealth.ts
   * MOVE_AFTER_CLAIMS): its node may be dead for good. One grant with `rejoin`, and the server moves the
   * room to a node that answers (docs/protocol.md "Media session lost"): the call goes on in a new session
   * there, as after a restart, even when a claim succeeded meanwhile (the room, and the agent with it, may
   * be on the new node now). The server could not place the room (503): the claims go on. Resolves
   * whether the call moved.
   */
  async #move(lost: MediaTransport, plan: JoinPlan, error: string): Promise<boolean> {
    const { api, read, room } = this.#options;
    let grant: MediaGrant;
    try {
      grant = await api.mediaGrant(plan.callId, { webview: this.#options.webview, rejoin: true, move: true });
    } catch (failure) {
      console.warn(`media: the call cannot move to a new session yet (${String(failure)}): claiming on`);
      claimAfterRefusedMove(lost, failure);
      return false;
    }
    if (!room.isCurrent(lost) || read().callId !== plan.callId) return false;
    console.warn(`media: Janus unreachable (${error}): the call moves to a new session`);
    void this.#rejoinWith(lost, plan, grant, error);
    return true;
  }

  /** The call goes on in a new session of `grant` after `lost`; failing, the call fails as a lost session did. */
  async #rejoinWith(lost: MediaTransport, plan: JoinPlan, grant: MediaGrant, error: string): Promise<void> {
    const { room } = this.#options;
    if (!room.isCurrent(lost)) return;
    let media = lost;
    try {
      const opened = this.#open(grant, plan, true);
      media = opened.media;
      await room.rejoin(lost, media, {
        room: opened.room,
        display: plan.username,
        video: plan.kind === 'video',
        watermark: this.#options.watermark,
        waitVisible: true,
      });
    } catch (failure) {
      if (room.isCurrent(media)) await this.#rejoinFailed(media, plan, error, failure);
    }
  }

  #rejoinFailed(media: MediaTransport, plan: JoinPlan, error: string, failure: unknown): Promise<void> {
    const reason = failure instanceof Error && failure.message === MEDIA_SERVER_DOWN ? MEDIA_SERVER_DOWN : MEDIA_LOST;
    return this.#lost(media, plan.callId, `${error}; rejoining: ${String(failure)}`, undefined, reason);
  }

  /** An agent's camera feed: the agent joins the call (the first one answers it). */
  #onAgentFeed(feed: RemoteFeed, callId: string): void {
    const { read, write } = this.#options;
    if (read().callId !== callId) return;
    const mainBefore = read().status.peers[0]?.peerJID;
    const peer = this.#options.agents.peerOf(feed);
    const hasVideo = feed.stream.getVideoTracks().length > 0;
    // one change: the app sees the agent's stream and the answered call together
    write({
      status: peerJoined(read().status, peer, hasVideo),
      remoteFeeds: this.#options.room.feedsWith(feed),
      ...(read().phase === 'waiting' ? { phase: 'ongoing' as const } : {}),
    });
    if (read().phase !== 'ongoing') return;
    // our presence names the call's (first) agent: the one who answered, or a transfer's new agent
    // whose media reached us after the first agent had left
    if (read().status.peers[0]?.peerJID !== mainBefore) this.#options.announce();
    this.#options.report.answered(callId, peer.peerJID);
  }

  /** What only the guest follows of its media: stages (call-bug reports), agents leaving, Janus's end. */
  #follow(media: MediaTransport, callId: string): void {
    const { read, write, room } = this.#options;
    media.on('stage', ({ stage, ok, error }) => {
      write({ stages: { ...read().stages, [stage]: ok } });
      if (!ok) this.#options.report.bug(callId, `${stage}: ${error ?? ''}`);
    });
    this.#options.agents.follow(media);
    media.on('held', ({ peer }) => {
      if (room.isCurrent(media)) this.#options.held(peer);
    });
    media.on('destroyed', () => {
      if (room.isCurrent(media)) write({ status: { ...read().status, janusSessionEnded: true } });
    });
    // p2p: the agent who answered never took our Jingle session (declined, timed out, gone) through every
    // attempt: unless another agent's media reached us (a transfer), the call fails and the guest is told
    media.on('peerUnreachable', ({ peer, error }) => {
      if (!room.isCurrent(media) || read().status.peers.length > 0) return;
      // sent before the teardown, which takes the guest out of its room
      this.#options.sendEnd(callId);
      void this.#lost(media, callId, `${P2P_UNREACHABLE}: ${peer}: ${error}`, undefined, P2P_UNREACHABLE);
    });
  }

  /** The call room's health hooks (media/mediaHealth.ts): the notice shown, the rejoin, the lost session. */
  #health(plan: JoinPlan): NonNullable<FeedHooks['health']> {
    const { write } = this.#options;
    const { callId } = plan;
    return {
      notice: (mediaNotice) => write({ mediaNotice }),
      onLost: (error, media) => void this.#lost(media, callId, error),
      onRejoin: (error, media) => void this.#rejoin(media, plan, error),
      onUnreachable: (error, media) => this.#move(media, plan, error),
      onIceFailed: (handle, media) => void this.#lost(media, callId, `${ICE_FAILED}: ${handle}`, handle),
      quality: (networkQuality) => write({ networkQuality }),
    };
  }

  /**
   * Janus lost the call's session, a peer connection stayed down through every ICE restart (`handle`), or
   * (p2p) the agent never took our Jingle session (`code` P2P_UNREACHABLE): the report is marked failed,
   * a call-bug report sent, and the call fails.
   */
  async #lost(
    media: MediaTransport,
    callId: string,
    error: string,
    handle?: 'publisher' | 'subscriber' | 'screen',
    code: string = handle ? ICE_FAILED : lostCode(error),
  ): Promise<void> {
    const { report } = this.#options;
    await report.failed(media, callId, handle);
    report.bug(callId, code === MEDIA_LOST || code === MEDIA_SERVER_DOWN ? `${code}: ${error}` : error);
    await this.#options.fail(callId, code);
  }
}
