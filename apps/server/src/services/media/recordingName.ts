/**
 * The server's name for a publisher's recording (docs/protocol.md "Recording"), given to Janus by the gate
 * on the publisher's configure, together with the room secret that lock_record asks for. Janus writes
 * {room rec_dir}/{name}-{audio|video}-{n}.mjr once the server enables the room's recording; the rec_dir
 * is {root}/{companyId}/{callId}, so the whole path is
 * /recordings/{companyId}/{callId}/{callId}_{username}_{guest|agent}[-screen]_{timestamp}.
 * Who the publisher is comes from its token, never from what its browser says.
 */
import type { Participant } from './janusTokens.ts';

export function recordingName(callId: string, who: Participant, screen: boolean, now: number): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_.@-]/g, '_');
  return `${safe(callId)}_${safe(who.username)}_${who.role}${screen ? '-screen' : ''}_${now}`;
}
