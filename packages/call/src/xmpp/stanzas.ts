/**
 * Lobby's own XMPP payloads (documented in docs/protocol.md):
 * - presence `<lobby xmlns="urn:lobby:presence:0" userType="guest|agent" appointmentID="…"/>`
 * - message `<call xmlns="urn:lobby:call:0" action="…" callId="…"/>`: call control between the guest
 *   and the agents of its room (end now; hold, resume, transfer and more in later work).
 */
import type * as XMPP from 'stanza';
import { attribute, booleanAttribute } from 'stanza/jxt/index.js';
import { NS_LOBBY_PRESENCE, type LobbyPresenceElement } from '../presence.ts';

export const NS_LOBBY_CALL = 'urn:lobby:call:0';

export const CALL_ACTIONS = ['end', 'hold', 'resume', 'answer'] as const;
export type CallAction = (typeof CALL_ACTIONS)[number];

export interface CallControl {
  action: CallAction;
  callId: string;
  /** The call id the call continues under (resume after hold). */
  newCallId?: string;
  /** answer (p2p): the agent's full JID, which the guest opens its Jingle session toward */
  peer?: string;
}

declare module 'stanza/protocol' {
  interface Presence {
    lobby?: Partial<LobbyPresenceElement>;
  }
  interface Message {
    lobbyCall?: Partial<CallControl>;
  }
}

export function lobbyStanzas(_client: XMPP.Agent, stanzas: XMPP.JXT.Registry): void {
  stanzas.define([
    {
      element: 'lobby',
      namespace: NS_LOBBY_PRESENCE,
      path: 'presence.lobby',
      fields: {
        userType: attribute('userType'),
        // the appointment id as text, or empty — sent even when empty (docs/protocol.md "Identifiers")
        appointmentID: attribute('appointmentID', undefined, { emitEmpty: true }),
        callType: attribute('callType'),
        audioMuted: booleanAttribute('audioMuted'),
        videoMuted: booleanAttribute('videoMuted'),
        lineStep: attribute('lineStep'),
        name: attribute('name'),
        profileImageUrl: attribute('profileImageUrl'),
        pageChanges: booleanAttribute('pageChanges'),
      },
    },
    {
      element: 'call',
      namespace: NS_LOBBY_CALL,
      path: 'message.lobbyCall',
      fields: {
        action: attribute('action'),
        callId: attribute('callId'),
        newCallId: attribute('newCallId'),
        peer: attribute('peer'),
      },
    },
  ]);
}

export function isCallControl(value: Partial<CallControl> | undefined): value is CallControl {
  return !!value && !!value.callId && (CALL_ACTIONS as readonly string[]).includes(value.action ?? '');
}
