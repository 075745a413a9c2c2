import { Emitter } from '../emitter.ts';
import type { DeviceChoice } from '../ports/media.ts';
import type { CallRoom } from './callRoom.ts';

/**
 * The in-call controls both engines offer their app, written once: each is the CallRoom's, on the engine's
 * current call. GuestCall and AgentDesk extend this and add what is theirs.
 */
export abstract class InCallEngine<Events extends Record<string, unknown>> extends Emitter<Events> {
  /** the engine's call-room core */
  protected abstract readonly inCall: CallRoom;
  /** whether the current call sends video (devices changes keep a voice call a voice call) */
  protected abstract callIsVideo(): boolean;

  /** Sends a chat message to the call's room. */
  sendChat(body: string): void {
    this.inCall.chat.send(body);
  }

  /** Opens or closes the chat panel (opening clears the unread count). */
  setChatOpen(open: boolean): void {
    this.inCall.chat.setOpen(open);
  }

  /** A shared screen large or not. */
  setZoomed(zoomed: boolean): void {
    this.inCall.setZoomed(zoomed);
  }

  async stopScreenShare(): Promise<void> {
    await this.inCall.stopScreenShare();
  }

  /**
   * Changes camera and/or microphone during the call without dropping it (docs/protocol.md "Call status"
   * deviceConfigChanged), or flips between the front and the back camera (isBackCam).
   */
  changeDevices(choice: DeviceChoice): Promise<void> {
    return this.inCall.changeDevices(choice, this.callIsVideo());
  }

  /** The device settings panel (deviceConfigOpen). */
  setDeviceConfigOpen(open: boolean): void {
    this.inCall.setDeviceConfigOpen(open);
  }

  /**
   * Noise suppression of our microphone on or off (docs/architecture.md "Noise suppression"): at once in
   * a call, and for the calls after. The app remembers the choice.
   */
  setNoiseSuppression(on: boolean): Promise<void> {
    return this.inCall.setNoiseSuppression(on);
  }

  /** Volume of the others' audio, 0–1 (callVolume, default 1). */
  setCallVolume(volume: number): void {
    this.inCall.setCallVolume(volume);
  }

  /** The participant shown large (mainUser). */
  setMainUser(jid: string): void {
    this.inCall.setMainUser(jid);
  }

  /** Statistics of the media connections (tests and diagnostics). */
  peerConnections(): ReturnType<CallRoom['peerConnections']> {
    return this.inCall.peerConnections();
  }
}
