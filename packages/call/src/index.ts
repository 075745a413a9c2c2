/**
 * @lobby/call — the framework-free call engine shared by the guest app and the console.
 *
 * - presence codec and call-id rules (pure, unit-tested)
 * - XmppSession (StanzaJS) and MediaSession (janus.js), both loaded lazily on first use
 * - CallRoom: the call-room core both engines compose, its dependencies as ports (ports/), wired by
 *   composition.ts
 * - GuestCall and AgentDesk: the two sides of a call, emitting snapshots the apps render
 */
export * from './presence.ts';
export * from './callId.ts';
export * from './guestId.ts';
export { Emitter } from './emitter.ts';
export * from './state/callStatus.ts';
export * from './api/http.ts';
export * from './api/guestApi.ts';
export * from './api/consoleApi.ts';
export {
  XmppSession,
  splitRoomJid,
  type RoomPresence,
  type ControlMessage,
  type ChatMessage,
  type OutgoingChat,
  type XmppSessionOptions,
} from './xmpp/session.ts';
export { normalizeIceServers } from './xmpp/iceServers.ts';
export { NS_LOBBY_CALL, CALL_ACTIONS, type CallAction, type CallControl } from './xmpp/stanzas.ts';
export { MediaSession, loadJanus } from './media/mediaSession.ts';
export { UnsendableCameraError } from './media/cameraGuard.ts';
export * from './media/devices.ts';
export { watermarkBox } from './media/watermark.ts';
export { retry } from './media/retry.ts';
export { consoleBuffer, captureConsole, CONSOLE_BUFFER_SIZE, type ConsoleEntry } from './consoleBuffer.ts';
export * from './media/mediaHealth.ts';
export * from './media/networkQuality.ts';
export * from './guest/guestCall.ts';
export * from './ports/callPorts.ts';
export * from './ports/clock.ts';
export * from './ports/devices.ts';
export * from './ports/environment.ts';
export * from './ports/media.ts';
export * from './ports/signalling.ts';
export { defaultPorts } from './composition.ts';
export { CallRoom, type RoomView, type CallRoomOptions, type PublishPlan } from './room/callRoom.ts';
export { InCallEngine } from './room/inCallEngine.ts';
export * from './agent/agentDesk.ts';
export * from './stats.ts';
