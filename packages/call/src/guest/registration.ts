/**
 * The guest's registration (docs/protocol.md "Registration"): registering (asked again while the server
 * answers 503), the API token renewed before it expires, and the appointment a link names looked up.
 * The engine (guestCall.ts) hands in its API and clock; nothing here knows of the call.
 */
import type { GuestRegistration } from '@lobby/contracts';
import type { GuestApi } from '../api/guestApi.ts';
import { ApiError } from '../api/http.ts';
import { retry } from '../media/retry.ts';
import type { ClockPort } from '../room/ports.ts';

/** The engine's error when the guest's appointment link names no appointment (404 from the server). */
export const UNKNOWN_APPOINTMENT = 'unknownAppointment';

/** registration refused with 503 (rooms not provisioned in time) is tried again after 1, 2 and 3 s */
const REGISTER_ATTEMPTS = 4;
const REGISTER_RETRY_MS = 1000;

/** Registers the guest; a 503 is ejabberd not creating the guest's rooms in time (a busy hour): asked again, a few times. */
export function registerGuest(api: Pick<GuestApi, 'register'>, guestId: string, companyId: number): Promise<GuestRegistration> {
  return retry(() => api.register(guestId, companyId), {
    attempts: REGISTER_ATTEMPTS,
    delayMs: REGISTER_RETRY_MS,
    maxDelayMs: 4 * REGISTER_RETRY_MS,
    transient: (error) => error instanceof ApiError && error.status === 503,
    onRetry: (error, attempt) => console.warn(`register: attempt ${attempt} failed: ${String(error)}`),
  });
}

/**
 * The guest's API token expires (2 h); a call, its hold and its rating can outlast it. Registering again
 * (the same guest, found by its browser id) renews it before then, and again before the next expiry;
 * a failed renewal is tried again a minute later.
 */
export class TokenRenewal {
  readonly #clock: ClockPort;
  readonly #renew: () => Promise<{ expires_in: number }>;
  #cancel: () => void = () => undefined;

  constructor(clock: ClockPort, renew: () => Promise<{ expires_in: number }>) {
    this.#clock = clock;
    this.#renew = renew;
  }

  /** Renews at 80 % of the token's life (a minute at least). */
  start(expiresInSeconds: number): void {
    this.stop();
    const delay = Math.max(60, expiresInSeconds * 0.8) * 1000;
    this.#cancel = this.#clock.setTimeout(() => {
      this.#renew().then(
        (renewed) => this.start(renewed.expires_in),
        () => this.start(75), // 80 % of 75 s: a minute
      );
    }, delay);
  }

  stop(): void {
    this.#cancel();
    this.#cancel = () => undefined;
  }
}

export interface Appointment {
  reference: string;
  id: string;
  /** the agent's username, lowercase */
  agentUsername: string;
}

/**
 * Fills the appointment's id and agent from its reference (the guest's link carries only the reference);
 * a link naming no appointment (mistyped, cancelled, another company's) fails with UNKNOWN_APPOINTMENT, for
 * which the guest app shows its own screen, not a connection failure.
 */
export async function lookUpAppointment(api: Pick<GuestApi, 'appointment'>, wanted: Appointment): Promise<Appointment> {
  if (wanted.id && wanted.agentUsername) return wanted;
  if (!api.appointment) throw new Error('appointment lookups are not available');
  const found = await api.appointment(wanted.reference).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) throw new Error(UNKNOWN_APPOINTMENT);
    throw error;
  });
  return { reference: found.reference, id: String(found.id), agentUsername: found.agentUsername.toLowerCase() };
}
