// When the guest is offered a time instead of waiting (docs/guest-journey.md "Booking a time instead").
import type { WaitEstimateWords } from '@lobby/contracts';

/** The shortest wait, in minutes, the estimate's words promise; null when they promise nothing long. */
function estimatedMinutes(estimate: WaitEstimateWords): number | null {
  switch (estimate.kind) {
    case 'minutes':
      return estimate.minutes;
    case 'longWait':
      return estimate.atLeastMinutes;
    default:
      // under a minute, or "a few minutes" (within ten): never long enough to send a guest away
      return null;
  }
}

/** Whether the estimate passes the company's threshold (`bookingAfterMinutes`), when it takes bookings. */
export function waitPassesThreshold(
  company: { appointmentBooking?: boolean; bookingAfterMinutes?: number } | null,
  estimate: WaitEstimateWords | null,
): boolean {
  if (!company?.appointmentBooking || !estimate) return false;
  const minutes = estimatedMinutes(estimate);
  return minutes !== null && minutes > (company.bookingAfterMinutes ?? 10);
}
