/**
 * The guest's presence in its room, which is how agents see it waiting (docs/protocol.md "Presence"):
 * `OpenCall|target|callId` while it waits (Away on a hidden Android page), `InCall|agent|callId` with an
 * agent, CallOnHold / CallResumed on hold; its name and mute state in the lobby element. The guest is in
 * its room from prepare() until a call ends and again from the next call, and after an XMPP reconnection
 * joins it again with what the agents last had from it. The engine hands in its environment port and
 * reads of its registration and call.
 */
import { encodePresenceStatus, joinStatus, presenceName, presenceTarget, type LobbyPresenceElement, type CallKind } from '../presence.ts';
import type { EnvironmentPort, SignallingPort } from '../room/ports.ts';
import type { CallStatus } from '../state/callStatus.ts';

/** What the presence reads of the engine's call. */
export interface PresenceCallView {
  phase: string;
  callId: string | null;
  callKind: CallKind;
  muted: { audio: boolean; video: boolean };
  status: Pick<CallStatus, 'peers' | 'peerCall'> & Partial<Pick<CallStatus, 'lineStep'>>;
}

export interface GuestRoomPresenceOptions {
  environment: EnvironmentPort;
  /** the app's own reading of the page (the guest app's option); the environment port's otherwise */
  facts?: (() => { pageHidden: boolean; isAndroid: boolean; notificationAllowed: boolean }) | undefined;
  signalling: () => SignallingPort | null;
  /** the guest's room (its assignment's) and its nick there */
  room: () => string | null;
  username: () => string | null;
  call: () => PresenceCallView;
  /** the guest's name for the agents, read whenever presence is sent */
  displayName?: (() => string | null | undefined) | undefined;
  appointment: () => { id: string; agentUsername: string } | null;
  roundRobin: boolean;
  /** the widget's call page in its panel (LobbyPresenceElement `pageChanges`) */
  pageChanges?: boolean;
  /** the page became visible or hidden while a call waits or goes on */
  pageVisible: (visible: boolean) => void;
}

export class GuestRoomPresence {
  readonly #options: GuestRoomPresenceOptions;
  /**
   * Whether the guest belongs in its room: from prepare() until a call ends, and again from the next
   * call. A guest whose call ended leaves the room and a reconnection does not bring it back, so the
   * server's vanished-guest rule sees it gone (docs/protocol.md "End").
   */
  #inRoom = false;
  /** the status of our room presence as the agents last had it (empty between calls) */
  #status = '';
  #stopVisibility: (() => void) | null = null;

  constructor(options: GuestRoomPresenceOptions) {
    this.#options = options;
  }

  get inRoom(): boolean {
    return this.#inRoom;
  }

  /** Joins the room once the session is connected (prepare()). */
  async join(): Promise<void> {
    const { signalling, room, username } = this.#where();
    if (!signalling || !room || !username) return;
    await signalling.joinRoom(room, username, '', this.lobbyElement());
    this.#inRoom = true;
  }

  /** Joins the room again for a new call (it left at the last call's end); with the stream down the reconnection joins it. */
  async enter(): Promise<void> {
    const { signalling, room, username } = this.#where();
    if (this.#inRoom || !signalling || !room || !username) return;
    this.#inRoom = true;
    if (signalling.connected) await signalling.joinRoom(room, username, '', this.lobbyElement());
  }

  /** Another assignment's room is chosen: leaves this one; `change` moves to the next, which is then entered. */
  async switchRoom(change: () => void): Promise<void> {
    const { signalling, room, username } = this.#where();
    if (room && username && signalling && this.#inRoom) await signalling.leaveRoom(room, username);
    change();
    this.#inRoom = false;
    await this.enter();
  }

  /**
   * The call is over: the guest leaves its room (its presence there is its call's), and stays out until
   * its next call, so a reconnection meanwhile does not count it back in (docs/protocol.md "End").
   */
  leaveAfterCall(): void {
    const { signalling, room, username } = this.#where();
    if (!signalling || !room || !username || !this.#inRoom) return;
    this.#inRoom = false;
    this.#status = '';
    if (signalling.connected) void signalling.leaveRoom(room, username);
  }

  /** The guest's element in its room presence: its name, the call's type and its mute state. */
  lobbyElement(): LobbyPresenceElement {
    const call = this.#options.call();
    const element: LobbyPresenceElement = { userType: 'guest', appointmentID: this.#options.appointment()?.id ?? '' };
    if (call.callId) element.callType = call.callKind;
    if (call.muted.audio) element.audioMuted = true;
    if (call.muted.video) element.videoMuted = true;
    const { lineStep } = call.status;
    if (lineStep && lineStep !== 'full') element.lineStep = lineStep;
    const name = presenceName(this.#options.displayName?.());
    if (name) element.name = name;
    if (this.#options.pageChanges) element.pageChanges = true;
    return element;
  }

  /** Sends `status|target|callId` to the room: OpenCall while waiting, InCall with the agent (or `override`). */
  announce(override?: 'CallOnHold' | 'CallResumed', overrideTarget = ''): void {
    const call = this.#options.call();
    const callId = call.callId;
    if (!callId) return;
    if (override) {
      this.#send(encodePresenceStatus({ status: override, target: overrideTarget, callId }));
      return;
    }
    if (call.status.peerCall === 'Paused') return; // on hold: CallOnHold stays
    const { peers } = call.status;
    const status = peers.length ? 'InCall' : joinStatus(this.#facts());
    const target = presenceTarget({
      peers,
      appointmentAgent: this.#options.appointment()?.agentUsername || null,
      roundRobin: this.#options.roundRobin,
    });
    this.#send(encodePresenceStatus({ status, target, callId }));
  }

  /**
   * Tells the room this page is being replaced by the website's next one (docs/widget.md "Moving between
   * pages"): the agents see the guest navigating, not leaving. False when there is no call to keep.
   */
  announceNavigating(): boolean {
    const call = this.#options.call();
    const { signalling, room, username } = this.#where();
    if (!call.callId || !signalling || !room || !username) return false;
    const target = presenceTarget({
      peers: call.status.peers,
      appointmentAgent: this.#options.appointment()?.agentUsername || null,
      roundRobin: this.#options.roundRobin,
    });
    this.#send(encodePresenceStatus({ status: 'Navigating', target, callId: call.callId }));
    return true;
  }

  /** Sends our room presence and keeps its status: a reconnection announces it again (rejoin). */
  #send(status: string): void {
    const { signalling, room, username } = this.#where();
    if (!signalling || !room || !username) return;
    this.#status = status;
    if (signalling.connected) signalling.setRoomPresence(room, username, status, this.lobbyElement());
  }

  /**
   * The XMPP session came back after a drop (XmppSession reconnects by itself). A new stream is in no
   * room: we join ours again, announcing what the agents last had from us (OpenCall while we wait, so we
   * are back in their queues; InCall in a call; CallOnHold on hold). Between calls the guest is in no room.
   */
  async rejoin(): Promise<void> {
    const { signalling, room, username } = this.#where();
    if (!signalling || !room || !username || !this.#inRoom) return;
    await signalling.joinRoom(room, username, this.#status, this.lobbyElement()).catch((error: unknown) => {
      console.warn(`rejoining ${room} after a reconnection failed: ${String(error)}`);
    });
  }

  /** While a call waits or goes on, the status follows the page's visibility (Away on hidden Android pages). */
  followVisibility(): void {
    this.stopFollowingVisibility();
    const { environment } = this.#options;
    this.#stopVisibility = environment.onVisibilityChange(() => {
      this.#options.pageVisible(!environment.pageHidden());
      if (this.#options.call().phase === 'waiting') this.announce();
    });
  }

  stopFollowingVisibility(): void {
    this.#stopVisibility?.();
    this.#stopVisibility = null;
  }

  #facts(): { pageHidden: boolean; isAndroid: boolean; notificationAllowed: boolean } {
    if (this.#options.facts) return this.#options.facts();
    const { environment } = this.#options;
    return { pageHidden: environment.pageHidden(), isAndroid: environment.isAndroid(), notificationAllowed: environment.notificationAllowed() };
  }

  #where(): { signalling: SignallingPort | null; room: string | null; username: string | null } {
    return { signalling: this.#options.signalling(), room: this.#options.room(), username: this.#options.username() };
  }
}
