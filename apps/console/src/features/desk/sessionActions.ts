// The console's session actions (login, logout, restore) against the API, and call handling that only
// moves state: the whole AgentActions for dev fixtures and tests, and the session part of the engine's.
import { ApiError } from '@lobby/call/http';
import { toggleLocalTracks } from '@lobby/ui';
import * as consoleApi from '../../api/console.ts';
import type { AgentActions } from '../../state/agentActions.ts';
import type { ConsoleStore, LoginError } from '../../state/store.ts';
import { queueGuestName } from '../../state/guestName.ts';

export type ConsoleApi = Pick<typeof consoleApi, 'login' | 'logout' | 'sessionUser' | 'companyName'>;

function loginErrorOf(error: unknown): LoginError {
  if (error instanceof ApiError) {
    if (error.status === 401 || error.status === 400) return 'invalid';
    if (error.status === 429) return 'rateLimited';
    if (error.status === 0) return 'network';
  }
  return 'unknown';
}

/** Session calls for real; call handling only moves state. Replaced when the engine is wired. */
export function placeholderAgentActions(store: ConsoleStore, api: ConsoleApi = consoleApi): AgentActions {
  const s = () => store.getState();
  const loadCompanyName = (companyId: number) =>
    api.companyName(companyId).then(
      (name) => s().setCompanyName(name),
      () => undefined, // the header simply shows no company name
    );
  return {
    async login(email, password) {
      s().setLoginPending(true);
      s().setLoginError(null);
      try {
        const user = await api.login(email, password);
        s().setSession(user);
        void loadCompanyName(user.companyId);
      } catch (error) {
        s().setLoginError(loginErrorOf(error));
      } finally {
        s().setLoginPending(false);
      }
    },
    async logout() {
      try {
        await api.logout();
      } catch {
        // The session is forgotten locally either way.
      }
      s().resetCall();
      s().setSession(null);
    },
    async restoreSession() {
      try {
        // an expired session answers signed out: the sign-in page shows
        const user = await api.sessionUser();
        s().setSession(user);
        if (user) void loadCompanyName(user.companyId);
      } catch {
        s().setSession(null);
      }
    },
    answer(callId) {
      const entry = s().queue.find((q) => q.callId === callId);
      if (!entry || s().activeCall) return;
      s().removeQueueEntry(callId);
      const now = Date.now();
      s().setActiveCall({
        ...{ callId, room: entry.room, guestNick: entry.nick, startedAt: now, callType: entry.callType, guestStatus: entry.statusText },
        ...{ guestName: queueGuestName(entry), assignmentName: entry.assignmentName ?? '', talkingSince: now },
      });
    },
    hangup() {
      s().localStream?.getTracks().forEach((track) => track.stop());
      s().resetCall();
    },
    toggleAudio: () => s().setAudioMuted(toggleLocalTracks(s().localStream, 'audio', s().audioMuted)),
    toggleVideo: () => s().setVideoMuted(toggleLocalTracks(s().localStream, 'video', s().videoMuted)),
    setAvailability(availability) {
      s().setAvailability(availability);
    },
  };
}

