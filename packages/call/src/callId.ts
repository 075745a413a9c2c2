/**
 * Call ids (docs/protocol.md "Identifiers"): the guest's username, then '--', then a suffix.
 * The call id also names the call's Janus room, and (lowercased) is that room's pin.
 */

export const CALL_ID_SEPARATOR = '--';
const SUFFIX = /^[a-z0-9_-]{1,64}$/i;

/** The guest username of a call id: the part before '--' (the whole id if there is none). */
export function guestUsernameOf(callId: string): string {
  const at = callId.indexOf(CALL_ID_SEPARATOR);
  return at === -1 ? callId : callId.slice(0, at);
}

/** True when `callId` is `{username}--{suffix}` with a well-formed suffix. */
export function isCallIdOf(callId: string, username: string): boolean {
  if (!username || username.includes(CALL_ID_SEPARATOR)) return false;
  const prefix = username + CALL_ID_SEPARATOR;
  return callId.startsWith(prefix) && SUFFIX.test(callId.slice(prefix.length));
}

/** A new call id for a guest; the suffix is random unless given (tests). */
export function newCallId(username: string, suffix: string = randomSuffix()): string {
  if (!username || username.includes(CALL_ID_SEPARATOR)) throw new Error('invalid guest username');
  if (!SUFFIX.test(suffix)) throw new Error('invalid call id suffix');
  return `${username}${CALL_ID_SEPARATOR}${suffix}`;
}

function randomSuffix(): string {
  const bytes = new Uint8Array(6);
  globalThis.crypto.getRandomValues(bytes);
  return Date.now().toString(36) + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * @deprecated Not the pin of any room: the server creates each call's room with a random pin and hands
 * it out in the media grant (docs/protocol.md "Media room"). A pin derived from the call id let anyone
 * who knew the call id into the call.
 */
export function roomPin(callId: string): string {
  return callId.toLowerCase();
}
