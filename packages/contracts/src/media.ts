import { Type, type Static } from '@sinclair/typebox';
import { CallId } from './callReport.ts';

/**
 * A participant's way into its call's Janus room (docs/protocol.md "Media room"): the room the server
 * created, its random pin, and a Janus token for that room alone (short-lived, signed by the server).
 */
export const JanusGrant = Type.Object(
  {
    room: Type.String(),
    pin: Type.String(),
    token: Type.String(),
    expires_in: Type.Integer({ description: 'seconds the token stays valid' }),
  },
  { additionalProperties: false },
);

export type JanusGrant = Static<typeof JanusGrant>;

/**
 * The answer for a call of a company whose callMethod is p2p (docs/protocol.md "p2p"): no media room
 * exists; the media flows directly between the guest and its agent over a Jingle session.
 */
export const P2PGrant = Type.Object(
  { method: Type.Literal('p2p', { description: 'media directly between guest and agent (Jingle), no Janus room' }) },
  { additionalProperties: false },
);

/** The server tells each side how its call's media flows: a Janus room, or p2p. */
export const MediaGrant = Type.Union([JanusGrant, P2PGrant]);
export type MediaGrant = Static<typeof MediaGrant>;

/** POST /api/call-report/media: the guest's grant for its own call (the server creates the room). */
export const GuestMediaBody = Type.Object(
  {
    call_id: CallId,
    webview: Type.Optional(Type.Boolean({ description: 'H264 42e01f room for in-app webviews' })),
    rejoin: Type.Optional(Type.Boolean({ description: "the media session was lost (Janus restarted): the server re-creates the call's room when Janus no longer has it" })),
    move: Type.Optional(Type.Boolean({ description: "with rejoin: the session's Janus node stopped answering (not a restart): refused 409 while the room's node answers and still has it, so the client claims its session again" })),
  },
  { additionalProperties: false },
);

/** POST /api/console/calls/{callId}/media?rejoin=true: the agent's media session was lost (docs/protocol.md "Media session lost"). */
export const ConsoleMediaQuery = Type.Object(
  {
    rejoin: Type.Optional(Type.Boolean({ description: "the media session was lost (Janus restarted): the server re-creates the call's room when Janus no longer has it" })),
    move: Type.Optional(Type.Boolean({ description: "with rejoin: the session's Janus node stopped answering (not a restart): refused 409 while the room's node answers and still has it, so the client claims its session again" })),
  },
  { additionalProperties: false },
);

/**
 * POST /api/console/media/standby: an agent's standby Janus token (docs/security.md "Media plane"): its
 * console keeps a Janus session and its videoroom handles warm with it before it answers; it names no
 * room, so it joins none, and it passes on the websocket only.
 */
export const MediaStandby = Type.Object(
  {
    token: Type.String(),
    expires_in: Type.Integer({ description: 'seconds the token stays valid (as long as a call may stay open)' }),
  },
  { additionalProperties: false },
);
export type MediaStandby = Static<typeof MediaStandby>;

/** The deployment keeps no standby sessions (LOBBY_MEDIA_STANDBY off, the default). */
export const MediaStandbyOff = Type.Object(
  { standby: Type.Literal('off', { description: 'this deployment keeps no standby sessions' }) },
  { additionalProperties: false },
);

/**
 * The standby route's answer: the token; p2p for a company whose calls never touch the media server; or
 * off when the deployment keeps no standby sessions.
 */
export const MediaStandbyAnswer = Type.Union([MediaStandby, P2PGrant, MediaStandbyOff]);
export type MediaStandbyAnswer = Static<typeof MediaStandbyAnswer>;
