import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { Timestamp } from './common.ts';

/** GET /api/appointment/{reference} params: the reference of the guest's link /appointment/{reference}. */
export const AppointmentReferenceParams = Type.Object({
  reference: Type.String({ minLength: 1, maxLength: 200 }),
});

/** What a guest learns about its appointment: only what its call needs (no note, no agent name). */
export const GuestAppointment = Type.Object({
  id: Type.Integer(),
  reference: Type.String(),
  agentUsername: Type.String({ description: "the appointment agent's XMPP username, lowercase (the presence target)" }),
  startsAt: Timestamp,
});
export type GuestAppointment = Static<typeof GuestAppointment>;

/** Where a waiting round-robin call stands (docs/protocol.md "Round robin"). */
export const CallRoutingInfo = Type.Object({
  callId: Type.String(),
  assignmentId: Type.Integer(),
  state: Type.Union([Type.Literal('offered'), Type.Literal('open')], {
    description: 'offered: only offeredTo lists the call; open: every agent of the assignment does',
  }),
  offeredTo: Type.Union([Type.String(), Type.Null()], { description: "the offered agent's XMPP username" }),
  expiresAt: Type.Union([Timestamp, Type.Null()], { description: 'when the offer moves to the next agent' }),
  offerSeconds: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
    description: "the offer's length (offered only): a console never counts down from more, whatever its clock",
  }),
});
export type CallRoutingInfo = Static<typeof CallRoutingInfo>;

/** Server-sent events of GET /api/console/events: `event: callRouting`, `data: <CallRoutingInfo JSON>`. */
export const CONSOLE_EVENT_CALL_ROUTING = 'callRouting';

/** POST /api/console/availability: whether round robin may offer this agent calls. */
export const ConsoleAvailabilityBody = Type.Object(
  {
    availability: Type.Union([Type.Literal('available'), Type.Literal('away')]),
    busy: Type.Optional(Type.Boolean({ description: 'in a call (an agent in a call is not offered another)' })),
  },
  { additionalProperties: false },
);
export type ConsoleAvailabilityBody = Static<typeof ConsoleAvailabilityBody>;

export const CallIdParams = Type.Object({
  callId: Type.String({ minLength: 4, maxLength: 160, pattern: '^g[0-9a-f]{16}--[A-Za-z0-9_-]{1,64}$' }),
});

/** POST /api/console/calls/{callId}/transfer: to one agent, or to the agents of an assignment. */
export const TransferBody = Type.Object(
  {
    toUserId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
    assignmentId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  },
  { additionalProperties: false },
);
export type TransferBody = Static<typeof TransferBody>;

/** GET /api/console/transfer-targets: agents who could take a call now, and the assignments. */
export const TransferTargets = Type.Object({
  agents: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), jid: Type.String() })),
  assignments: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
});
export type TransferTargets = Static<typeof TransferTargets>;

/** `event: callTransfer` to the agent(s) a call is handed to. */
export const IncomingTransfer = Type.Object({
  id: Type.Integer(),
  callId: Type.String(),
  room: Type.String(),
  guestUsername: Type.String(),
  fromName: Type.String(),
  fromJid: Type.String(),
});
export type IncomingTransfer = Static<typeof IncomingTransfer>;

/** `event: transferAccepted`: the call's new agent; the old one leaves once it sees it in the call. */
export const TransferAccepted = Type.Object({ id: Type.Integer(), callId: Type.String(), toJid: Type.String() });
export type TransferAccepted = Static<typeof TransferAccepted>;

export const CONSOLE_EVENT_CALL_TRANSFER = 'callTransfer';
export const CONSOLE_EVENT_TRANSFER_ACCEPTED = 'transferAccepted';
/** The server may have missed events of its other instances (docs/architecture.md "Shared state"): reload the rooms. */
export const CONSOLE_EVENT_RESYNC = 'resync';
