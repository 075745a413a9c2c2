/**
 * How a call's media flows, as the server's media grant says (docs/protocol.md "p2p"): a Janus room, or a
 * Jingle session between the guest and its agent (media/p2pTransport.ts). Both engines build their
 * transport options here, so the rest of their media code is the same for both methods.
 */
import type { MediaGrant } from '@lobby/contracts';
import type { MediaTransportOptions, P2POptions, RoomOptions } from '../ports/media.ts';
import type { ControlMessage } from '../xmpp/session.ts';
import type { SignallingPort } from '../ports/signalling.ts';

/** The guest's screen for an agent that tried to join a p2p call (the server's 409 names it). */
export const P2P_NO_JOIN = 'p2pNoJoin';

/**
 * The guest's failure when its Jingle session never reached the agent who answered (declined, timed out,
 * the console gone) through every attempt (media/p2pTransport.ts P2P_INITIATE_ATTEMPTS).
 */
export const P2P_UNREACHABLE = 'p2pUnreachable';

export function isP2PGrant(grant: MediaGrant): grant is { method: 'p2p' } {
  return 'method' in grant && grant.method === 'p2p';
}

/** The transport's options and the room to join for a grant (a p2p call's "room" is its call id). */
export function transportFor(
  grant: MediaGrant,
  callId: string,
  base: { servers: string[]; xmpp: SignallingPort },
  p2p: Omit<P2POptions, 'jingle'>,
): { options: MediaTransportOptions; room: RoomOptions } {
  if (!isP2PGrant(grant)) {
    return {
      options: { servers: base.servers, iceServers: base.xmpp.iceServers, token: grant.token },
      room: { room: grant.room, pin: grant.pin },
    };
  }
  const jingle = base.xmpp.jingle;
  if (!jingle) throw new Error('p2p call without a Jingle session manager');
  return {
    options: { servers: [], iceServers: base.xmpp.iceServers, p2p: { ...p2p, jingle } },
    room: { room: callId, pin: '' },
  };
}

/**
 * The agent's full JID from its `answer` control, when it is the JID of the room occupant who sent it
 * (`occupants`: nick → bare JID): the guest opens its Jingle session toward nobody else.
 */
export function answeringPeer(control: ControlMessage, occupants: ReadonlyMap<string, string>): string | null {
  const nick = control.from.slice(control.from.indexOf('/') + 1);
  const occupant = occupants.get(nick);
  const peer = control.peer ?? '';
  if (!occupant || !peer.includes('/') || peer.split('/')[0]!.toLowerCase() !== occupant.toLowerCase()) return null;
  return peer;
}
