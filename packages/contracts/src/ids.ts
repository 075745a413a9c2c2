/** Call ids are `<guest username>--<suffix>` (docs/protocol.md "Identifiers"). */
export const CALL_ID_SEPARATOR = '--';
export const CALL_ID_SUFFIX_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const GUEST_USERNAME_PATTERN = /^g[0-9a-f]{16}$/;
export const GUEST_ID_PATTERN = /^[0-9a-f]{32}$/;

/** The guest username of a call id (the part before the first '--'), or null when the id is malformed. */
export function parseCallId(callId: string): { username: string; suffix: string } | null {
  const at = callId.indexOf(CALL_ID_SEPARATOR);
  if (at <= 0) return null;
  const username = callId.slice(0, at);
  const suffix = callId.slice(at + CALL_ID_SEPARATOR.length);
  if (!CALL_ID_SUFFIX_PATTERN.test(suffix)) return null;
  return { username, suffix };
}

/** The XMPP room (local part) of a guest and an assignment: `a{assignmentId}-{username}`. */
export function guestRoomName(assignmentId: number, username: string): string {
  return `a${assignmentId}-${username}`;
}
