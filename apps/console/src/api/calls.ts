// A call as agents see it (docs/api.md "Console and administration"): the queue entry's details, the
// note after the call, and the company's latest calls with their notes.
import type { CallDetails, CallSummary, ServiceFilter } from '@lobby/contracts';
import { apiRequest } from '@lobby/call/http';

export type { CallDetails, CallSummary };

export const getCallDetails = (callId: string, signal?: AbortSignal) =>
  apiRequest<CallDetails>(`/console/calls/${encodeURIComponent(callId)}`, signal ? { signal } : {});

export const putCallNote = (callId: string, note: string) =>
  apiRequest<CallDetails>(`/console/calls/${encodeURIComponent(callId)}/note`, { method: 'PUT', body: { note } });

export const listCalls = (limit = 50, service: ServiceFilter = 'all') =>
  apiRequest<CallSummary[]>('/console/calls', { query: { limit, service } });
