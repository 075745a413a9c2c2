/**
 * The agent's lists of guests (docs/protocol.md "Presence"): the queue (OpenCall) and the calls others
 * are in (InCall), built from the guests' room presences.
 *
 * Why incremental (docs/performance.md "Waiting guests"): a console in a thousand guests' rooms receives a
 * presence per arrival, per change and per departure. Rebuilding both lists from every presence in every
 * room on each one made listing N guests cost N² entries (a console needed 220 s to list 1,000). One
 * presence changes at most its own occupant's entry, so `withPresence` replaces just that one and
 * returns the same array when nothing listed changed (another agent joining a room, for example), so the
 * console does not even re-render then. `buildList` is the full rebuild, for when a rule's input other
 * than a presence changes (round robin's routing).
 */
import type { CallRoutingInfo as CallRouting } from '@lobby/contracts';
import type { OpenCallRoom } from '../api/consoleApi.ts';
import type { LobbyPresenceElement, PresenceInfo, CallKind } from '../presence.ts';
import type { RoomPresence } from '../xmpp/session.ts';

export interface QueueEntry {
  room: string;
  nick: string;
  guestJid: string | null;
  callId: string;
  target: string;
  appointmentID: string;
  assignmentId: number | null;
  assignmentName: string | null;
  /** epoch ms when this agent first saw the call open */
  since: number;
  /** the raw presence the agent received, kept for audits and tests */
  statusText: string;
  lobby: Partial<LobbyPresenceElement> | null;
  callType: CallKind;
  /** round robin: offered to this agent until this epoch ms (null: not an offer, anyone may answer) */
  offerExpiresAt: number | null;
  /**
   * The guest's page is being replaced by the website's next one (presence Navigating, docs/widget.md
   * "Moving between pages"): still waiting in its place, not gone, until that page takes the call back.
   */
  navigating?: true;
}

/** Which list: waiting guests (OpenCall) or calls other agents are in (InCall). */
export type ListedStatus = 'OpenCall' | 'InCall';

/** What the rules read besides the presence itself. */
export interface QueueContext {
  /** our nick in the guests' rooms (our username) */
  nick: string;
  rooms: ReadonlyMap<string, OpenCallRoom>;
  routing: ReadonlyMap<string, CallRouting>;
  now: number;
  /**
   * The `since` of calls that left the list a moment ago, by call id: a guest whose page was replaced by
   * the website's next one comes back with the same call and keeps its place (docs/widget.md).
   */
  returning?: ReadonlyMap<string, number>;
}

/**
 * The entry a guest's presence makes in the `wanted` list, or null when it is not listed there: members
 * whose status is OpenCall are waiting (for us: the target is us or any agent, and round robin does not
 * offer it to another agent right now); InCall ones are in another agent's call.
 */
export function entryOf(presence: RoomPresence, wanted: ListedStatus, ctx: QueueContext, since: number | undefined): QueueEntry | null {
  const info: PresenceInfo = presence.info;
  // a waiting call whose page is being replaced keeps its entry (it had one: its place is known)
  const navigating = wanted === 'OpenCall' && info.status === 'Navigating' && since !== undefined;
  if (!presence.available || (info.status !== wanted && !navigating) || !info.callId) return null;
  if (presence.lobby?.userType && presence.lobby.userType !== 'guest') return null;
  if (wanted === 'OpenCall' && !targetsMe(info.target, ctx.nick)) return null;
  const routing = ctx.routing.get(info.callId);
  const offeredToMe = routing?.state === 'offered' && routing.offeredTo?.toLowerCase() === ctx.nick.toLowerCase();
  // round robin: a call offered to another agent is not ours to list until it is open to all
  if (wanted === 'OpenCall' && routing?.state === 'offered' && !offeredToMe) return null;
  const room = ctx.rooms.get(presence.room);
  return {
    room: presence.room,
    nick: presence.nick,
    guestJid: presence.jid,
    callId: info.callId,
    target: info.target,
    appointmentID: presence.lobby?.appointmentID ?? '',
    assignmentId: room?.assignmentId ?? null,
    assignmentName: room?.assignmentName ?? null,
    since: since ?? ctx.now,
    statusText: presence.statusText,
    lobby: presence.lobby,
    callType: presence.lobby?.callType === 'voice' ? 'voice' : 'video',
    offerExpiresAt: offeredToMe && routing?.expiresAt ? Date.parse(routing.expiresAt) : null,
    ...(navigating ? { navigating: true as const } : {}),
  };
}

/**
 * The whole list from every occupant's last presence; a call keeps the `since` it had in `previous`.
 * An entry that did not change is `previous`'s own object, and `previous` itself is returned when no
 * entry changed (round robin's routing of one call rebuilds the list: the console re-renders that row).
 */
export function buildList(
  presences: Iterable<RoomPresence>,
  wanted: ListedStatus,
  ctx: QueueContext,
  previous: QueueEntry[],
): QueueEntry[] {
  const before = new Map(previous.map((e) => [e.callId, e]));
  const entries: QueueEntry[] = [];
  for (const presence of presences) {
    const old = before.get(presence.info.callId);
    const entry = entryOf(presence, wanted, ctx, old?.since ?? ctx.returning?.get(presence.info.callId));
    if (entry) entries.push(old && sameEntry(old, entry) ? old : entry);
  }
  entries.sort((a, b) => a.since - b.since);
  return entries.length === previous.length && entries.every((e, i) => e === previous[i]) ? previous : entries;
}

function sameEntry(a: QueueEntry, b: QueueEntry): boolean {
  return (Object.keys(a) as Array<keyof QueueEntry>).every((k) =>
    k === 'lobby' ? JSON.stringify(a.lobby) === JSON.stringify(b.lobby) : a[k] === b[k],
  );
}

/**
 * `list` after one occupant's presence: its entry replaced, added (in `since` order) or removed. The
 * same array when the presence lists nothing and listed nothing before, or lists what it listed.
 */
export function withPresence(list: QueueEntry[], presence: RoomPresence, wanted: ListedStatus, ctx: QueueContext): QueueEntry[] {
  const at = list.findIndex((e) => e.room === presence.room && e.nick === presence.nick);
  const sameCall = at >= 0 ? list[at] : list.find((e) => e.callId === presence.info.callId);
  const since = sameCall?.callId === presence.info.callId ? sameCall.since : ctx.returning?.get(presence.info.callId);
  // the navigating guest's page went (its presence too; a widget panel's page going is a page change, its
  // Navigating lost or not), or its next page joined without a status yet: it stays listed, navigating,
  // until the next page says OpenCall (or RoomFollowing lets it go: NAVIGATION_RETURN_MS)
  const listed = at >= 0 ? list[at]! : null;
  if (listed && (listed.navigating || (!presence.available && listed.lobby?.pageChanges)) && (!presence.available || !presence.info.status)) {
    return listed.navigating ? list : [...list.slice(0, at), { ...listed, navigating: true }, ...list.slice(at + 1)];
  }
  const entry = entryOf(presence, wanted, ctx, since);
  if (at < 0 && !entry) return list;
  // the same entry (a routing or presence that changes nothing shown): the same array, no re-render
  if (at >= 0 && entry && sameCall === list[at] && sameEntry(list[at]!, entry)) return list;
  const rest = at < 0 ? list : [...list.slice(0, at), ...list.slice(at + 1)];
  if (!entry) return rest;
  // entries are oldest first; a new one is usually the newest, so look from the end
  let i = rest.length;
  while (i > 0 && rest[i - 1]!.since > entry.since) i--;
  return [...rest.slice(0, i), entry, ...rest.slice(i)];
}

/**
 * A waiting guest's target (docs/protocol.md): empty or roundRobin = any agent of the room; otherwise the
 * appointment agent's lowercase username, and only that agent lists the call (the others may share the
 * guest's room from an earlier call).
 */
export function targetsMe(target: string, nick: string): boolean {
  if (!target || target === 'roundRobin') return true;
  return target.toLowerCase() === nick.toLowerCase();
}
