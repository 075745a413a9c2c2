import type { Services } from '../../../services/index.ts';
import { createVanishedGuestSweep, type VanishedGuestSweep } from '../../../services/vanishedGuests.ts';
import { runWhileServing } from '../../../services/periodicJob.ts';
import type { App } from '../../../typebox.ts';

/** Runs the vanished-guest sweep (services/vanishedGuests.ts) while the server runs. */
export function vanishedGuestSweep(app: App, services: Services): VanishedGuestSweep {
  const sweep = createVanishedGuestSweep({
    db: services.db.kysely,
    ejabberd: services.ejabberd,
    now: services.now,
    openMs: services.config.openCallHours * 3600_000,
    log: (message, error) => (error ? app.log.warn({ err: error }, message) : app.log.info(message)),
  });
  runWhileServing(app, sweep, 3000);
  return sweep;
}
