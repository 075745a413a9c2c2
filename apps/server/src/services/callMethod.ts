/**
 * The company's call method (mediaServer, the default, or p2p) as the server applies it
 * (docs/protocol.md "p2p"). A p2p call passes no media server: the server makes no Janus room for it,
 * answers the media grants with `{method: 'p2p'}`, and nothing records it.
 */
import type { MediaGrant } from '@lobby/contracts';
import { isReportAgent } from './callVisibility.ts';

export const P2P_GRANT: MediaGrant = { method: 'p2p' };

export function isP2P(settings: { callMethod?: unknown } | undefined | null): boolean {
  return settings?.callMethod === 'p2p';
}

/**
 * The admin's settings after a change: p2p with recordCalls on is refused (nothing could record the call,
 * and the guest would be shown a recording notice for a recording that never happens). The 400's message.
 */
export function callMethodConflict(settings: { callMethod?: unknown; recordCalls?: unknown }): string | null {
  if (isP2P(settings) && settings.recordCalls !== false)
    return 'recordCalls: p2p calls pass no media server and cannot be recorded; turn recordCalls off to use callMethod p2p';
  return null;
}

/**
 * Who may take a p2p call's media (a Jingle session with the guest): the agent answering it (no agent
 * recorded yet) or the recorded agent (after a transfer or a resume; callVisibility.ts recordedAgent). A
 * second participant, such as a supervisor joining, has no place in a two-party p2p session: refused
 * with this message.
 */
export function p2pJoinRefusal(reportAgent: string | null, xmppUsername: string): string | null {
  if (!reportAgent || isReportAgent(reportAgent, xmppUsername)) return null;
  return 'callId: a p2p call has no room for another participant (p2pNoJoin)';
}
