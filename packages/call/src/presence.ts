/**
 * The guest's presence status, docs/protocol.md "Presence" and "Identifiers".
 *
 * A room presence carries `status|target|callId` in its <status/> text and a custom element
 * `<lobby xmlns="urn:lobby:presence:0" userType="guest" appointmentID=""/>`.
 */

/** The statuses a guest sends (docs/protocol.md "Constants"). */
export const PRESENCE_STATUSES = [
  'InCall',
  'OpenCall',
  'Away',
  'CallOnHold',
  'CallResumed',
  'TestNode',
  // the guest's page is being replaced by the next page of the website that embeds it (docs/widget.md
  // "Moving between pages"): its call comes back from there
  'Navigating',
] as const;
export type PresenceStatus = (typeof PRESENCE_STATUSES)[number];

/** A decoded `status|target|callId`. An unknown or empty status decodes as `status: null`. */
export interface PresenceInfo {
  status: PresenceStatus | null;
  target: string;
  callId: string;
}

/** The kind of call a guest places: with its camera, or its microphone only (the apps' choice too). */
export type CallKind = 'video' | 'voice';

/** The custom presence element: who the sender is and which appointment it calls for. */
export interface LobbyPresenceElement {
  userType: 'guest' | 'agent';
  /** The appointment id as text, or empty. */
  appointmentID: string;
  /** Lobby's addition: the kind of call the guest placed, so the agent sees it in the queue. */
  callType?: CallKind;
  /** Lobby's addition: the sender's microphone is muted (docs/protocol.md "Mute state"). */
  audioMuted?: boolean;
  /** Lobby's addition: the sender's camera is off. */
  videoMuted?: boolean;
  /**
   * Lobby's addition: the sender's line is weak (docs/protocol.md "Line steps"): its video is smaller
   * (`reduced`) or paused to keep the sound (`audioOnly`); absent on a good line.
   */
  lineStep?: 'reduced' | 'audioOnly';
  /**
   * Lobby's addition: the name people see — the agent's name from its console account, the guest's from
   * its welcome form or the website's pre-fill. The JID stays the identity (presence target, peers).
   */
  name?: string;
  /**
   * peers `profileImageUrl`: the agent's picture (its console account's), a path of our origin
   * (`/api/profile-images/{id}`) or an https URL; the guest shows it as the agent's avatar.
   */
  profileImageUrl?: string;
  /**
   * Lobby's addition: the guest is the website widget's call page in its panel (docs/widget.md "Moving
   * between pages"): its page going without hanging up is the website changing page, whose next page
   * takes the call back, even when its Navigating presence was lost with the closing page.
   */
  pageChanges?: boolean;
}

/** A name as it may travel in presence: trimmed, at most 80 characters, or nothing. */
export function presenceName(name: string | null | undefined): string | undefined {
  const trimmed = (name ?? '').trim().slice(0, 80);
  return trimmed || undefined;
}

/**
 * A picture address as it may travel in presence and be shown in an <img>: a path of our origin
 * (`/…`, not `//…`) or an https URL, at most 300 characters, without quotes, spaces or angle brackets;
 * anything else (javascript:, data:, http:) is nothing.
 */
export function presenceImageUrl(url: string | null | undefined): string | undefined {
  const value = (url ?? '').trim();
  if (!value || value.length > 300 || /[\s"'<>\\]/.test(value)) return undefined;
  if (/^\/(?!\/)/.test(value) || /^https:\/\/[^/]/i.test(value)) return value;
  return undefined;
}

export const NS_LOBBY_PRESENCE = 'urn:lobby:presence:0';

const SEPARATOR = '|';

export function isPresenceStatus(value: string): value is PresenceStatus {
  return (PRESENCE_STATUSES as readonly string[]).includes(value);
}

/** Encodes a presence status. Fields must not contain the separator, which would shift the others. */
export function encodePresenceStatus(info: {
  status: PresenceStatus;
  target?: string;
  callId?: string;
}): string {
  const target = info.target ?? '';
  const callId = info.callId ?? '';
  if (target.includes(SEPARATOR) || callId.includes(SEPARATOR)) {
    throw new Error(`presence fields must not contain "${SEPARATOR}"`);
  }
  return [info.status, target, callId].join(SEPARATOR);
}

/** Decodes a room member's status text (split by "|"). Never throws. */
export function decodePresenceStatus(text: string | undefined | null): PresenceInfo {
  const [status = '', target = '', callId = ''] = (text ?? '').split(SEPARATOR);
  return { status: isPresenceStatus(status) ? status : null, target, callId };
}

/**
 * The presence target (docs/protocol.md "Presence"): first peer's JID, else the appointment agent's lowercase
 * username, else 'roundRobin' when the company uses round robin, else empty.
 */
export function presenceTarget(input: {
  peers?: readonly { peerJID: string }[];
  appointmentAgent?: string | null;
  roundRobin?: boolean;
}): string {
  const firstPeer = input.peers?.[0]?.peerJID;
  if (firstPeer) return firstPeer;
  if (input.appointmentAgent) return input.appointmentAgent.toLowerCase();
  if (input.roundRobin) return 'roundRobin';
  return '';
}

/**
 * The status a guest announces when it joins its room (docs/protocol.md): Away when the page is hidden on a
 * mobile Android device without notification permission (it could never be alerted), otherwise OpenCall.
 */
export function joinStatus(env: {
  pageHidden: boolean;
  isAndroid: boolean;
  notificationAllowed: boolean;
}): PresenceStatus {
  return env.pageHidden && env.isAndroid && !env.notificationAllowed ? 'Away' : 'OpenCall';
}
