/**
 * The agents of the guest's call, as the guest sees them: their room presence (JID, name, picture, kept for
 * their feeds to come), the peer a feed makes, who held the call, and their leaving the media room — a
 * transfer's new agent named in our presence once the first one left, and the call over when the last one
 * left and stayed away AGENT_LEFT_GRACE_MS (a hold control carried by another server may still arrive).
 * The engine hands in its clock and reads and writes its call's status.
 */
import type { RemoteFeed } from '../media/mediaSession.ts';
import { presenceImageUrl, presenceName } from '../presence.ts';
import { answeringPeer } from '../room/p2pCall.ts';
import type { ClockPort, MediaTransport } from '../room/ports.ts';
import { isScreenDisplay, peerLeft, type CallStatus, type Peer } from '../state/callStatus.ts';
import type { ControlMessage, RoomPresence } from '../xmpp/session.ts';

/** How long the guest waits, after the last agent left the media room, before the call counts as over. */
export const AGENT_LEFT_GRACE_MS = 1500;

export interface AgentsInCallOptions {
  clock: ClockPort;
  read: () => { phase: string; status: CallStatus };
  setStatus: (update: (status: CallStatus) => CallStatus) => void;
  /** whether this transport is still the call's (not held or ended meanwhile) */
  isCurrent: (media: MediaTransport) => boolean;
  /** the call's first agent changed (a transfer): our presence names the new one */
  firstAgentChanged: () => void;
  /** the last agent left and did not come back */
  allLeft: () => void;
}

export class AgentsInCall {
  readonly #options: AgentsInCallOptions;
  /** agents in our room: nick → bare JID (from their room presence) */
  readonly #occupants = new Map<string, string>();
  /** agents' names from their room presence (bare JID → name) */
  readonly #names = new Map<string, string>();
  /** agents' pictures by bare JID, from their room presence */
  readonly #images = new Map<string, string>();
  /** the last agent whose stream we received */
  #lastPeer: string | null = null;

  constructor(options: AgentsInCallOptions) {
    this.#options = options;
  }

  /** An agent's presence in our room: its JID, name and picture (the peers shown follow at once). */
  onRoomPresence(presence: RoomPresence): void {
    if (presence.lobby?.userType === 'guest') return;
    const jid = presence.jid ? presence.jid.split('/')[0]! : presence.nick;
    if (presence.available && presence.jid) this.#occupants.set(presence.nick, jid);
    const name = presenceName(presence.lobby?.name);
    if (presence.available && name && this.#names.get(jid) !== name) {
      this.#names.set(jid, name);
      this.#options.setStatus((s) => ({ ...s, peers: s.peers.map((p) => (p.peerJID === jid ? { ...p, name } : p)) }));
    }
    // the agent's picture (peers profileImageUrl): kept, like the name, for its feed to come
    const image = presenceImageUrl(presence.lobby?.profileImageUrl);
    if (presence.available && this.#images.get(jid) !== image) {
      if (image) this.#images.set(jid, image);
      else this.#images.delete(jid);
      this.#options.setStatus((s) => ({
        ...s,
        peers: s.peers.map((p) => {
          if (p.peerJID !== jid) return p;
          const { profileImageUrl: _old, ...rest } = p;
          return image ? { ...rest, profileImageUrl: image } : rest;
        }),
      }));
    }
  }

  /** The peer an agent's camera feed makes, with the name and picture its presence gave. */
  peerOf(feed: RemoteFeed): Peer {
    this.#lastPeer = feed.display;
    return {
      peerJID: feed.display,
      janusId: feed.feedId,
      username: feed.display.split('@')[0] ?? feed.display,
      ...(this.#names.has(feed.display) ? { name: this.#names.get(feed.display)! } : {}),
      ...(this.#images.has(feed.display) ? { profileImageUrl: this.#images.get(feed.display)! } : {}),
    };
  }

  /** The agent who held the call (`from`: its room JID): its room occupant's JID (its media may have left already). */
  holder(from: string): string {
    const nick = from.slice(from.indexOf('/') + 1);
    return this.#occupants.get(nick) ?? this.#options.read().status.peers.find((p) => p.username === nick)?.peerJID ?? this.#lastPeer ?? '';
  }

  /** p2p: the full JID of the agent who answered (the room's occupant, no one else), or null. */
  answering(control: ControlMessage): string | null {
    return answeringPeer(control, this.#occupants);
  }

  /**
   * Follows the agents in the call's media room, with or without their media yet (a transfer's new agent
   * can be announced before the first agent leaves and reach us after): while one is there, the call goes on.
   */
  follow(media: MediaTransport): void {
    const agentsInRoom = new Set<string>();
    const agentsExpected = () => agentsInRoom.size > 0;
    media.on('publisherJoined', ({ feedId, display }) => {
      if (!isScreenDisplay(display)) agentsInRoom.add(feedId);
    });
    media.on('publisherLeft', ({ feedId }) => {
      agentsInRoom.delete(feedId);
      const { isCurrent, read, setStatus, clock } = this.#options;
      if (!isCurrent(media)) return;
      const firstBefore = read().status.peers[0]?.peerJID;
      setStatus((s) => peerLeft(s, feedId));
      // a transfer: the first agent left and another is in the call; our presence names the new one
      const firstNow = read().status.peers[0]?.peerJID;
      if (read().phase === 'ongoing' && firstNow && firstNow !== firstBefore) {
        this.#lastPeer = firstNow;
        this.#options.firstAgentChanged();
      }
      if (read().phase !== 'ongoing' || read().status.peers.length > 0 || agentsExpected()) return;
      // the last agent left: the call is over, unless a hold control (sent before the agent left
      // the media room, but carried by another server) arrives in the meantime
      clock.setTimeout(() => {
        const { phase, status } = read();
        if (isCurrent(media) && phase === 'ongoing' && status.peers.length === 0 && !agentsExpected() && status.peerCall !== 'Paused')
          this.#options.allLeft();
      }, AGENT_LEFT_GRACE_MS);
    });
  }
}
