/**
 * What round robin knows of this agent (docs/protocol.md "Round robin"): available or away, and busy while
 * in a call; told to the server once per change, and again after a failed telling on the next change.
 */
import type { ConsoleApi } from '../api/consoleApi.ts';

export class Availability {
  readonly #api: Pick<ConsoleApi, 'setAvailability'>;
  /** whether the desk is online (nothing is told while offline) */
  readonly #online: () => boolean;
  #away = false;
  /** what round robin was last told (so busy/away changes are sent once) */
  #told = '';

  constructor(api: Pick<ConsoleApi, 'setAvailability'>, online: () => boolean) {
    this.#api = api;
    this.#online = online;
  }

  /** Round robin offers calls only to available agents who are not in a call. */
  setAway(away: boolean, busy: boolean): void {
    this.#away = away;
    this.tell(busy);
  }

  tell(busy: boolean): void {
    const body = { availability: this.#away ? ('away' as const) : ('available' as const), busy };
    const key = JSON.stringify(body);
    if (key === this.#told || !this.#api.setAvailability || !this.#online()) return;
    this.#told = key;
    this.#api.setAvailability(body).catch(() => {
      this.#told = ''; // told again on the next change
    });
  }
}
