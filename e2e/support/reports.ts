/**
 * What Reports and the database say of a guest's call, for the journeys of a guest who vanished
 * (docs/operations.md "Calls whose guest vanished"): e2e/tests/reports-vanished.spec.ts on one instance,
 * e2e/scale/events.spec.ts with instance 1 down. `base` is the front door asked (the stack's by default).
 */
import { expect } from '@playwright/test';
import { BASE_URL } from './api.ts';
import { queryRows } from './db.ts';

export interface Totals {
  calls: number;
  answered: number;
  abandoned: number;
}

const today = () => new Date().toISOString().slice(0, 10);

/** Today's totals of the console user's Reports. */
export async function totals(cookie: string, base = BASE_URL): Promise<Totals> {
  const res = await fetch(`${base}/api/console/reports?from=${today()}&to=${today()}`, { headers: { cookie } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { totals: Totals } }).data.totals;
}

/** The newest call the console user sees. */
export async function newestCall(cookie: string, base = BASE_URL): Promise<{ callId: string; answered: boolean } | undefined> {
  const res = await fetch(`${base}/api/console/calls?limit=1`, { headers: { cookie } });
  return ((await res.json()) as { data: { callId: string; answered: boolean }[] }).data[0];
}

/** When the server took the call's guest for gone (guest_exit_at: the vanished-guest sweep's verdict), or null. */
export async function guestExitAt(callId: string): Promise<number | null> {
  const [row] = await queryRows<{ guest_exit_at: number | null }>('select guest_exit_at from call_reports where call_id = ?', [callId]);
  return row?.guest_exit_at ?? null;
}
