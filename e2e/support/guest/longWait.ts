/**
 * An assignment whose estimated wait is long (docs/guest-journey.md "Place in the queue and estimate"):
 * a history of calls handled in about forty minutes and one in progress, written into the database (what
 * a day of calls would have left). A guest who calls on it is told "about 39 minutes" within a minute.
 */
import crypto from 'node:crypto';
import { execute } from '../db.ts';
import { DEMO_COMPANY_ID, arrangeCompanySettings, onRestore } from './arrange.ts';
import { adminApi } from '../../tests/routing-support.ts';

export async function seedLongWait(assignmentId: number, now = Date.now()): Promise<void> {
  const seeded = `long-${crypto.randomBytes(4).toString('hex')}`;
  for (let i = 0; i < 13; i++) {
    const created = now - 110 * 60_000 + i * 5 * 60_000;
    // the last one is in progress: answered a minute ago, not ended
    const answered = i === 12 ? now - 60_000 : created + 20_000;
    await execute(
      // answered as both sides report it: the agent's grant and the guest's answered moment (the reports read it)
      `INSERT INTO call_reports (call_id, company_id, guest_username, assignment_id, source, status, created_at, call_initiated_at, agent_answered_at, call_answered_at, call_ended_at)
       VALUES (?, ?, ?, ?, 'site', 'ok', ?, ?, ?, ?, ?)`,
      [`${seeded}-${i}`, DEMO_COMPANY_ID, `g${crypto.randomBytes(8).toString('hex')}`, assignmentId, created, created, answered, answered, i === 12 ? null : answered + (38 + (i % 4)) * 60_000],
    );
  }
}

/**
 * A new assignment with a long estimated wait, in a company open all day that takes bookings past five
 * minutes (docs/guest-journey.md "Booking a time instead"); the settings come back and the assignment
 * goes in restoreAll() (the journeys after it count the demo company's assignments).
 */
export async function arrangeLongWaitBooking(language: 'english' | 'arabic'): Promise<string> {
  const name = `Long wait ${crypto.randomBytes(3).toString('hex')}`;
  const { id } = await adminApi<{ id: number }>('POST', '/admin/assignments', { name, type: 'queue' });
  onRestore(() => adminApi('DELETE', `/admin/assignments/${id}`));
  await arrangeCompanySettings({
    language,
    appointmentBooking: true,
    bookingAfterMinutes: 5,
    // open all day, every day: the guest calls now and books a later time
    schedule: { timezone: 'UTC', weekly: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, from: '00:00', to: '23:59' })) },
  });
  await seedLongWait(id);
  return name;
}
