// Transfer state for the console (docs/protocol.md "Transfer"): the calls handed to this agent and the
// desk's transfer actions. engineAgentActions binds its AgentDesk once; only types come from the engine.
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { AgentDesk, AgentSnapshot, IncomingTransfer } from '@lobby/call';

export interface TransferEngine {
  transferTargets(): Promise<{ agents: Array<{ id: number; name: string; jid: string }>; assignments: Array<{ id: number; name: string }> }>;
  transfer(to: { toUserId: number } | { assignmentId: number }): Promise<void>;
  acceptTransfer(id: number): Promise<void>;
}

export interface TransferState {
  incoming: readonly IncomingTransfer[];
  engine: TransferEngine | null;
}

const EMPTY: readonly IncomingTransfer[] = Object.freeze([]);

export const transferStore = createStore<TransferState>(() => ({ incoming: EMPTY, engine: null }));

export function bindTransfers(desk: AgentDesk): () => void {
  const apply = (snap: AgentSnapshot) => {
    const current = transferStore.getState().incoming;
    if (snap.transfers !== current && (snap.transfers.length > 0 || current.length > 0)) {
      transferStore.setState({ incoming: snap.transfers });
    }
  };
  transferStore.setState({ engine: desk, incoming: EMPTY });
  const off = desk.on('change', apply);
  return () => {
    off();
    transferStore.setState({ engine: null, incoming: EMPTY });
  };
}

export function useTransfers<T>(selector: (s: TransferState) => T): T {
  return useStore(transferStore, selector);
}
