/**
 * Each call's Janus room, owned by the server (docs/protocol.md "Media room", docs/security.md):
 *
 * - created on the guest's first request for its media grant, with a random pin and a random secret
 *   (never derived from the call id), at most 10 publishers, `lock_record` and the recording folder
 *   {recordings root}/{companyId}/{callId};
 * - recorded when the company records calls and the guest acknowledged the notice: armed when an agent of
 *   the company asks for its grant (it answers); the agent's streams are recorded from its first
 *   packet (the gate adds `record` to its configure), the guest's from once the agent's subscription is
 *   up (the gate calls startRecording: recordingStart.ts says when and why) — not while the guest waits,
 *   nor while the agent's browser sets up its devices, during which the guest still sees "waiting"
 *   (the agent's set-up would be recorded as a silent, empty start);
 * - re-created from its row when a participant whose media session was lost asks again (`rejoin`) and
 *   Janus no longer has it (Janus restarted: its rooms live in its memory), with the same id, pin, secret
 *   and recording folder; a recording room records again from the agent's next publish, in new part
 *   files of the same folder (docs/protocol.md "Media session lost"); a destroyed room never comes back;
 * - destroyed by the server when the call ends (or is held: the call continues in a new room);
 * - placed on one Janus node, the least loaded serving one (janusNodes.ts), recorded on the room's row:
 *   every later request about the room (recording, destroy, the stale sweep, the gate's routing) goes to
 *   that node; a room whose node no longer answers is re-created on another serving node on a rejoin.
 *
 * A grant is the room id, its pin and a Janus token for that room alone (janusTokens.ts), handed only in
 * authenticated answers to the call's guest and to its company's console users.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { createMediaRoomsRepository } from '../../repositories/mediaRooms.ts';
import type { JanusVideoroomAdmin } from './janusAdmin.ts';
import { NoJanusNodeError, type JanusNodes } from './janusNodes.ts';
import { NO_SUCH_ROOM, ROOM_EXISTS, JanusAdminError } from './janusAdmin.ts';
import type { JanusTokens, Participant } from './janusTokens.ts';
import type { MediaRoomRow } from '../../repositories/mediaRooms.ts';

export interface MediaGrant {
  room: string;
  pin: string;
  token: string;
  /** seconds the token stays valid */
  expires_in: number;
}

export interface MediaRooms {
  /** The guest's grant: creates the room on first use. */
  /**
   * The guest's grant: creates the room on first use; `rejoin` (its media session was lost) re-creates it
   * when Janus lost it, and throws MediaRoomClosed when the room was destroyed (the call ended or was held).
   */
  grantGuest(input: { callId: string; companyId: number; username: string; webview: boolean; rejoin?: boolean; move?: boolean }): Promise<MediaGrant>;
  /**
   * An agent's grant: the room must exist and be open (the guest made it); arms the recording when asked;
   * `rejoin` re-creates it when Janus lost it.
   */
  grantAgent(input: { callId: string; companyId: number; username: string; record: boolean; rejoin?: boolean; move?: boolean }): Promise<MediaGrant | null>;
  /** Starts the room's armed recording (every publisher's), once; nothing when it is not armed. */
  startRecording(callId: string): Promise<void>;
  /** Whether an agent's grant armed the room's recording (the gate then records an agent's configure). */
  recordArmed(callId: string): Promise<boolean>;
  /** The room's secret for the gate, which names each publisher's recording (null: no such room). */
  secretOf(callId: string): Promise<string | null>;
  /**
   * The Janus node of the call's room, open or destroyed (the gate routes the room's requests there);
   * null when there is no such room, or it was made before nodes were recorded (the first node).
   */
  nodeOf(callId: string): Promise<string | null>;
  /** Destroys the call's room (best effort: a room Janus no longer has is fine). */
  end(callId: string): Promise<void>;
  /**
   * Destroys rooms older than a token's life whose end never came (the guest's browser died): nobody can
   * be in them any more, since every token for them has expired; and rooms whose guest has been stamped
   * gone for GONE_GUEST_ROOM_MS.
   */
  sweepStale(): Promise<void>;
}

/**
 * Starts the room's recording when it is armed and not started yet (one caller wins the claim); the
 * claim is given back when Janus refuses, so that the next publish tries again. A room Janus no longer has
 * is a call that ended meanwhile (the server destroys the room before it marks it destroyed): nothing to
 * record, and nothing to report.
 */
async function startArmedRecording(
  repo: Pick<ReturnType<typeof createMediaRoomsRepository>, 'claimRecordingStart' | 'setRecording'>,
  janus: Pick<JanusVideoroomAdmin, 'enableRecording'>,
  callId: string,
): Promise<void> {
  const secret = await repo.claimRecordingStart(callId);
  if (secret === null) return;
  try {
    await janus.enableRecording(callId, secret);
  } catch (error) {
    await repo.setRecording(callId, 0);
    if (error instanceof JanusAdminError && error.code === NO_SUCH_ROOM) return;
    throw error;
  }
}

/**
 * A move (`rejoin` with `move`: the client's claims of its session went unanswered) asked while the room's
 * node answers and still has the room: the node is alive, so the client's own line was down; it claims
 * its session again (and restarts ICE) instead of leaving a live session for a new one.
 */
export class MediaRoomStillServed extends Error {
  constructor(callId: string) {
    super(`the media room of ${callId} is still on a Janus node that answers: claim the session again`);
    this.name = 'MediaRoomStillServed';
  }
}

/** A rejoin asked for a room the server destroyed (the call ended or was held): it is never made again. */
export class MediaRoomClosed extends Error {
  constructor(callId: string) {
    super(`the media room of ${callId} was closed`);
    this.name = 'MediaRoomClosed';
  }
}

/**
 * A rejoin's room could not be made again because no Janus node answers: the room's node is down and no
 * other serving node took it (with one node there is nowhere else). The media service's outage, not the
 * client's mistake: the grant routes answer 503, and the engines go on claiming their sessions meanwhile
 * (docs/protocol.md "Media session lost").
 */
export class MediaRoomUnavailable extends Error {
  readonly statusCode = 503;
  constructor(callId: string, cause: unknown) {
    super(`janus: no Janus node answers to make the media room of ${callId} again (its node is down); ask again`, { cause });
    this.name = 'MediaRoomUnavailable';
  }
}

/**
 * Makes a call's room again from its row when Janus no longer has it: same id, pin, secret and recording
 * folder. Janus restarted (its rooms and sessions lived in its memory): the room comes back on its node.
 * Its node does not answer (lost): the room moves to another serving node (janusNodes.ts place), written on
 * the row so that the gate routes the participants' new sessions there; with one node there is nowhere
 * else, and the create fails: no node answering (or none serving) is MediaRoomUnavailable. A recording room's flag is cleared first, so the gate's next
 * start (the agent's publish) claims it and Janus writes new part files into the same folder
 * (recordings/postprocess.ts mixes them in order). Both sides of the call ask at about the same time: the
 * one whose create Janus refuses as existing found it re-created by the other, and a move is made once (the
 * row's node changes only from the node it was read with).
 */
async function recreateIfLost(
  deps: {
    repo: Pick<ReturnType<typeof createMediaRoomsRepository>, 'setRecording' | 'moveNode' | 'byCallId'>;
    nodes: Pick<JanusNodes, 'admin' | 'place'>;
    recordingsRoot: string;
    log?: (message: string) => void;
  },
  row: MediaRoomRow,
  move = false,
): Promise<void> {
  if (row.destroyed_at !== null) throw new MediaRoomClosed(row.call_id);
  let node = row.janus_node;
  try {
    if (await deps.nodes.admin(node).exists(row.call_id)) {
      if (move) throw new MediaRoomStillServed(row.call_id);
      return;
    }
  } catch (unanswered) {
    if (unanswered instanceof MediaRoomStillServed) throw unanswered;
    // its node does not answer: another serving one takes the room (the first mover's choice wins)
    const target = await deps.nodes.place({ exclude: node }).catch((error: unknown) => {
      throw error instanceof NoJanusNodeError ? new MediaRoomUnavailable(row.call_id, unanswered) : error;
    });
    if (target !== node) {
      if (!(await deps.repo.moveNode(row.call_id, node, target))) {
        node = (await deps.repo.byCallId(row.call_id))?.janus_node ?? target;
        if (await deps.nodes.admin(node).exists(row.call_id).catch(() => false)) return;
      } else {
        node = target;
        deps.log?.(`moving the media room of ${row.call_id} from Janus node ${row.janus_node ?? 'default'} to ${target}`);
      }
    }
  }
  if (row.recording === 1) await deps.repo.setRecording(row.call_id, 0);
  try {
    await deps.nodes.admin(node).create({
      room: row.call_id,
      pin: row.pin,
      secret: row.secret,
      recDir: roomRecDir(deps.recordingsRoot, row.company_id, row.call_id),
      webview: row.webview === 1,
    });
  } catch (error) {
    if (error instanceof JanusAdminError && error.code === ROOM_EXISTS) return;
    // Janus answered and refused: a fault of ours; no answer at all (refused, timed out): the node is down
    throw error instanceof JanusAdminError ? error : new MediaRoomUnavailable(row.call_id, error);
  }
  deps.log?.(`re-created the media room of ${row.call_id} on Janus node ${node ?? 'default'} (Janus had lost it)`);
}

/**
 * A call whose guest vanished (stamped gone by services/vanishedGuests.ts, and not back since) keeps its
 * room this long, then the stale sweep destroys it: nobody ends such a call when it was never answered
 * (the guest closed the page while waiting) or when the agent's console vanished too, and its tokens last
 * LOBBY_OPEN_CALL_HOURS. A guest back in its room within it has its stamp taken back, and keeps the room.
 */
export const GONE_GUEST_ROOM_MS = 10 * 60_000;

const roomRecDir = (root: string, companyId: number, callId: string) => path.join(root, String(companyId), callId);

const random = (bytes: number) => randomBytes(bytes).toString('base64url');
/** lowercase: participants join with the pin in lowercase (docs/protocol.md "Constants") */
const randomPin = () => randomBytes(12).toString('hex');

export function createMediaRooms(deps: {
  repo: ReturnType<typeof createMediaRoomsRepository>;
  /** where a new room goes (`place`) and each node's admin client */
  nodes: Pick<JanusNodes, 'place' | 'admin'>;
  tokens: JanusTokens;
  recordingsRoot: string;
  /** a token outlives the longest call the console still lists (LOBBY_OPEN_CALL_HOURS) */
  tokenTtlSeconds: number;
  now: () => number;
  log?: (message: string, error?: unknown) => void;
}): MediaRooms {
  const { repo, nodes, tokens } = deps;
  /** the admin client of the node the call's room is on */
  const janusOf = async (callId: string) => nodes.admin((await repo.byCallId(callId))?.janus_node ?? null);
  const grant = (room: string, pin: string, participant: Participant): MediaGrant => {
    const t = tokens.mint(room, deps.tokenTtlSeconds, participant);
    return { room, pin, token: t.token, expires_in: t.expiresIn };
  };
  return {
    async grantGuest({ callId, companyId, username, webview, rejoin = false, move = false }) {
      const me: Participant = { role: 'guest', username };
      const existing = await repo.byCallId(callId);
      if (existing) {
        if (rejoin) await recreateIfLost(deps, existing, move);
        return grant(callId, existing.pin, me);
      }
      const node = await nodes.place();
      const row = {
        call_id: callId,
        company_id: companyId,
        pin: randomPin(),
        secret: random(24),
        created_at: deps.now(),
        janus_node: node,
        webview: webview ? 1 : 0,
      };
      if (!(await repo.add(row))) {
        const raced = await repo.byCallId(callId);
        if (!raced) throw new Error('media room vanished');
        return grant(callId, raced.pin, me);
      }
      try {
        await nodes.admin(node).create({
          room: callId,
          pin: row.pin,
          secret: row.secret,
          recDir: roomRecDir(deps.recordingsRoot, companyId, callId),
          webview,
        });
      } catch (error) {
        await repo.remove(callId); // the next request tries again
        // a room of this id left in Janus (a restart of ours with Janus still up) is not ours to trust
        if (error instanceof JanusAdminError && error.code === ROOM_EXISTS) throw new Error('media room exists in Janus but not here');
        throw error;
      }
      return grant(callId, row.pin, me);
    },
    async grantAgent({ callId, companyId, username, record, rejoin = false, move = false }) {
      const row = await repo.byCallId(callId);
      if (!row || row.company_id !== companyId || row.destroyed_at !== null) return null;
      // a room made again keeps the codec on its row (a webview guest's is H.264-only)
      if (rejoin) await recreateIfLost(deps, row, move);
      if (record && !row.record_armed) await repo.arm(callId);
      return grant(callId, row.pin, { role: 'agent', username });
    },
    async startRecording(callId) {
      await startArmedRecording(repo, await janusOf(callId), callId);
    },
    async recordArmed(callId) {
      const row = await repo.byCallId(callId);
      return !!row && row.destroyed_at === null && row.record_armed === 1;
    },
    async secretOf(callId) {
      const row = await repo.byCallId(callId);
      return row && row.destroyed_at === null ? row.secret : null;
    },
    async nodeOf(callId) {
      return (await repo.byCallId(callId))?.janus_node ?? null;
    },
    async sweepStale() {
      const now = deps.now();
      const stale = await repo.openBefore(now - deps.tokenTtlSeconds * 1000);
      const gone = await repo.openOfGuestsGoneBefore(now - GONE_GUEST_ROOM_MS);
      for (const callId of new Set([...stale, ...gone])) await this.end(callId);
    },
    async end(callId) {
      const row = await repo.byCallId(callId);
      if (!row || row.destroyed_at !== null) return;
      try {
        await nodes.admin(row.janus_node).destroy(callId, row.secret);
        await repo.setDestroyed(callId, deps.now());
      } catch (error) {
        deps.log?.(`destroying the media room of ${callId} failed`, error);
      }
    },
  };
}
