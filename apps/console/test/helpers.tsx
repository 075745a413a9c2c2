import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import '../src/i18n/index.ts';
import { AppProviders } from '../src/app/App.tsx';
import { createConsoleStore, type ConsoleStore } from '../src/state/store.ts';
import { initialAgentInCall, type AgentInCallState } from '../src/state/inCall.ts';
import type { AgentActions } from '../src/state/agentActions.ts';
import type { QueueEntry } from '@lobby/call';

export function Wrapper({
  store,
  children,
  path = '/',
  agentActions,
}: {
  store: ConsoleStore;
  children: ReactNode;
  path?: string;
  agentActions?: AgentActions;
}) {
  return (
    <AppProviders store={store} agentActions={agentActions}>
      <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>
    </AppProviders>
  );
}

export const agent = {
  id: 1,
  email: 'sarah@example.com',
  name: 'Sarah Miller',
  role: 'agent' as const,
  companyId: 18,
  jid: 'sarah@lobby.local',
  assignmentIds: [1],
};

/** The agent in a video call with Guest A1B2 answered `talkedMs` ago, no media yet; `inCall` as given. */
export function inCallStore(language: 'en' | 'ar', inCall: Partial<AgentInCallState>, talkedMs = 5_000): ConsoleStore {
  return createConsoleStore({
    session: 'authenticated',
    user: agent,
    language,
    activeCall: {
      ...{ callId: 'g1--a', room: 'a1-g1@conference.lobby.local', guestNick: 'g1', startedAt: Date.now() - talkedMs, callType: 'video', guestStatus: '' },
      ...{ guestName: 'Guest A1B2', assignmentName: 'Sales', talkingSince: Date.now() - talkedMs },
    },
    remoteFeeds: [],
    inCall: { ...initialAgentInCall, ...inCall },
  });
}

/** A guest waiting as the desk lists one (its entry), named `Guest <callId>` in its presence, in Sales. */
export function waitingGuest(callId: string, since: number, over: Partial<QueueEntry> = {}): QueueEntry {
  const nick = callId.split('--')[0] ?? callId;
  return {
    ...{ room: `a1-${nick}@conference.lobby.local`, nick, guestJid: null, callId, target: '', appointmentID: '' },
    ...{ assignmentId: 1, assignmentName: 'Sales', since, statusText: `OpenCall||${callId}`, callType: 'video', offerExpiresAt: null },
    lobby: { userType: 'guest', appointmentID: '', name: `Guest ${callId}` },
    ...over,
  };
}
