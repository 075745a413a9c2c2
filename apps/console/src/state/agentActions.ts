// What the console's buttons do, injected through context. The agent engine (packages/call) provides
// the real answer/hangup/media (features/desk/engineAgentActions.ts); features/desk/sessionActions.ts
// talks to the session API for real and otherwise only changes state (dev fixtures, tests).
import { createContext, useContext } from 'react';
import type { Availability } from './store.ts';

export interface AgentActions {
  /** Log in; on failure sets `loginError` (and resolves). */
  login(email: string, password: string): Promise<void>;
  logout(): Promise<void>;
  /** On load: GET /api/console/me; authenticated or anonymous. */
  restoreSession(): Promise<void>;
  /** Take the waiting guest's call. */
  answer(callId: string): void | Promise<void>;
  /** End the active call. */
  hangup(): void | Promise<void>;
  toggleAudio(): void;
  toggleVideo(): void;
  /** Available: new calls reach this agent; away: they do not. */
  setAvailability(availability: Availability): void | Promise<void>;
  /** Round robin: pass an offered call on to the next agent. */
  decline?(callId: string): void | Promise<void>;
}

export const AgentActionsContext = createContext<AgentActions | null>(null);

export function useAgentActions(): AgentActions {
  const actions = useContext(AgentActionsContext);
  if (!actions) throw new Error('useAgentActions must be used inside <AgentActionsContext.Provider>');
  return actions;
}
