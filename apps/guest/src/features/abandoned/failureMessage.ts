/**
 * The words a guest reads when a call failed, from the engine's error (SPEC.md §8's gateway messages
 * and the engine's own codes, packages/call media/mediaHealth.ts): what happened and what to do, never a
 * technical message. Anything else reads as a lost connection.
 */
export type FailureBodyKey =
  | 'abandoned.failedBody'
  | 'abandoned.failedMicrophoneBody'
  | 'abandoned.failedMediaLostBody'
  | 'abandoned.failedMediaServerBody';

export function failureBodyKey(error: string | undefined): FailureBodyKey {
  if (!error) return 'abandoned.failedBody';
  if (error === 'disabledMicrophone') return 'abandoned.failedMicrophoneBody';
  if (error === 'mediaLost') return 'abandoned.failedMediaLostBody';
  if (
    error === 'mediaServerDown' ||
    /Is the server down|Error connecting to any of the provided Janus servers|Lost connection to the server|Probably a network error|Request timed out|Library not initialized/i.test(error)
  )
    return 'abandoned.failedMediaServerBody';
  return 'abandoned.failedBody';
}
