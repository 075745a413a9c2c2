/**
 * Recording file names (SPEC.md §7): {root}/{companyId}/{callId}/{callId}_{username}_{role}[-screen]_{timestamp}.
 * Janus appends -audio-N.mjr / -video-N.mjr; the server post-processes those after the call.
 */
export function recordingFilename(input: {
  root: string;
  companyId: number;
  callId: string;
  username: string;
  role: 'guest' | 'agent';
  screen?: boolean;
  timestamp?: number;
}): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_.@-]/g, '_');
  const root = input.root.replace(/\/+$/, '');
  const stamp = input.timestamp ?? Date.now();
  const who = `${safe(input.username)}_${input.role}${input.screen ? '-screen' : ''}`;
  return `${root}/${input.companyId}/${safe(input.callId)}/${safe(input.callId)}_${who}_${stamp}`;
}
