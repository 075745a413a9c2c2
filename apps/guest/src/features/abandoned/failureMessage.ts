/**
 * The words a guest reads when a call failed, from the engine's error (docs/protocol.md "Error messages"
 * and the engine's own codes, packages/call media/mediaHealth.ts): what happened and what to do, never a
 * technical message. Anything else reads as a lost connection.
 */
export type FailureBodyKey =
  | 'abandoned.failedBody'
  | 'abandoned.failedMicrophoneBody'
  | 'abandoned.failedMediaLostBody'
  | 'abandoned.failedMediaServerBody'
  | 'abandoned.failedBrowserBody'
  | 'abandoned.failedReloadBody'
  | 'abandoned.failedServiceBody'
  | 'abandoned.failedSlowBody'
  | 'abandoned.failedAgentUnreachableBody';

/**
 * Each gateway message (janus.js's own words, which the engine passes on, sometimes with
 * a detail appended) and what the guest reads for it. Exported for the test that walks the whole list.
 */
export const GATEWAY_MESSAGES: ReadonlyArray<{ message: string; pattern: RegExp; key: FailureBodyKey }> = [
  // the media server is down or unreachable (first: janus.js wraps the last endpoint's error in these)
  {
    message: 'Is the server down? (connected=false)',
    pattern: /Is the server down\?? \(connected=false\)/i,
    key: 'abandoned.failedMediaServerBody',
  },
  {
    message: 'Lost connection to the server (is it down?)',
    pattern: /Lost connection to the server/i,
    key: 'abandoned.failedMediaServerBody',
  },
  {
    message: 'Error connecting to any of the provided Janus servers: Is the server down?',
    pattern: /Error connecting to any of the provided Janus servers/i,
    key: 'abandoned.failedMediaServerBody',
  },
  {
    message: 'Failed to destroy the server: Is the server down?',
    pattern: /Failed to destroy the server/i,
    key: 'abandoned.failedMediaServerBody',
  },
  // the page's own script is broken or half-loaded: a reload fixes it
  {
    message: 'Library not initialized',
    pattern: /Library not initialized/i,
    key: 'abandoned.failedReloadBody',
  },
  {
    message: 'WebRTC not supported by this browser',
    pattern: /WebRTC not supported/i,
    key: 'abandoned.failedBrowserBody',
  },
  // our side is misconfigured or answered nonsense: nothing the guest can fix but calling again later
  { message: 'Invalid server url', pattern: /Invalid server url/i, key: 'abandoned.failedServiceBody' },
  { message: 'Invalid plugin', pattern: /Invalid plugin/i, key: 'abandoned.failedServiceBody' },
  { message: 'Ooops: {code} {reason}', pattern: /^(Error: )?Ooops:/i, key: 'abandoned.failedServiceBody' },
  {
    message: 'Failed to parse response body',
    pattern: /Failed to parse response body/i,
    key: 'abandoned.failedServiceBody',
  },
  { message: 'API call failed', pattern: /API call failed/i, key: 'abandoned.failedServiceBody' },
  // the guest's own connection
  {
    message: 'Probably a network error, is the server down?',
    pattern: /Probably a network error/i,
    key: 'abandoned.failedBody',
  },
  { message: 'Request timed out', pattern: /Request timed out/i, key: 'abandoned.failedSlowBody' },
];

const CODES: Record<string, FailureBodyKey> = {
  disabledMicrophone: 'abandoned.failedMicrophoneBody',
  mediaLost: 'abandoned.failedMediaLostBody',
  mediaServerDown: 'abandoned.failedMediaServerBody',
  // p2p: the agent who answered never took the guest's Jingle session (packages/call room/p2pCall.ts)
  p2pUnreachable: 'abandoned.failedAgentUnreachableBody',
};

export function failureBodyKey(error: string | undefined): FailureBodyKey {
  if (!error) return 'abandoned.failedBody';
  const code = CODES[error];
  if (code) return code;
  return GATEWAY_MESSAGES.find((m) => m.pattern.test(error))?.key ?? 'abandoned.failedBody';
}
