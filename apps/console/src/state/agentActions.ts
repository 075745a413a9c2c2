// What the console's buttons do, injected through context. The agent engine (packages/call) provides
// the real answer/hangup/media (features/desk/engineAgentActions.ts); features/desk/sessionActions.ts
// talks to the session API for real and otherwise only changes state (dev fixtures, tests). The running
// desk itself is reached through here too (useDesk), never through the store, which holds data only.
import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';
import type { AgentDesk } from '@lobby/call';
import type { Availability } from './store.ts';

/** What the in-call UI and the transfers ask of the running desk: the engine's own methods. */
export type ConsoleDesk = Pick<
  AgentDesk,
  | 'setProfileImageUrl'
  | 'sendChat'
  | 'sendFile'
  | 'setChatOpen'
  | 'setZoomed'
  | 'startScreenShare'
  | 'stopScreenShare'
  | 'hold'
  | 'resume'
  | 'join'
  | 'changeDevices'
  | 'setNoiseSuppression'
  | 'setDeviceConfigOpen'
  | 'setMainUser'
  | 'transferTargets'
  | 'transfer'
  | 'acceptTransfer'
>;

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
  /** The running desk (null until it starts; none without the engine: dev fixtures, most tests). */
  desk?(): ConsoleDesk | null;
  /** Tells `listener` each time desk() changes; returns the unsubscribe. */
  onDesk?(listener: () => void): () => void;
}

export const AgentActionsContext = createContext<AgentActions | null>(null);

export function useAgentActions(): AgentActions {
  const actions = useContext(AgentActionsContext);
  if (!actions) throw new Error('useAgentActions must be used inside <AgentActionsContext.Provider>');
  return actions;
}

/** The running desk for the in-call UI and the transfers (null until it starts); re-renders when it starts. */
export function useDesk(): ConsoleDesk | null {
  const actions = useAgentActions();
  const subscribe = useCallback((listener: () => void) => actions.onDesk?.(listener) ?? (() => undefined), [actions]);
  const desk = useCallback(() => actions.desk?.() ?? null, [actions]);
  return useSyncExternalStore(subscribe, desk);
}
