import { BookingCreate, BookingSlots, DataEnvelope, GuestBooking, type FormDefinition } from '@lobby/contracts';
import type { FastifyRequest } from 'fastify';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';
import { guestOf } from '../../../plugins/app/auth.ts';
import { createAppointmentsRepository } from '../../../repositories/appointments.ts';
import { BOOKING_DAYS, SLOT_MINUTES, freeSlots, workingSlots } from '../../../services/bookingSlots.ts';
import { ownedReport } from '../../../services/callOwnership.ts';
import { addressKey } from '../../../services/openCalls.ts';
import type { Services } from '../../../services/index.ts';
import type { App } from '../../../typebox.ts';

/** The welcome form's contact fields (email, phone): a booking asks for them too. */
export function contactFields(form: FormDefinition | null) {
  return (form?.fields ?? []).filter((f) => f.type === 'email' || f.type === 'tel');
}

/**
 * A person books one time and keeps it; a script that registers guest after guest would take the agents'
 * whole fortnight: a guest holds one booking not yet begun, an address at most this many.
 */
export const MAX_UPCOMING_BOOKINGS_PER_ADDRESS = 10;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ()-]{5,30}$/;

/**
 * A guest books a time with one of the company's agents instead of waiting (docs/guest-journey.md
 * "Booking a time instead", docs/api.md "Booking"). The free times are the company's working hours (its
 * schedule) minus each agent's appointments; the booking is an appointment like those of the console,
 * whose link /appointment/{reference} reaches its agent.
 */
function bookingRoutes(app: App, services: Services): void {
  const repo = createAppointmentsRepository(services.db.kysely, services.now);
  // per guest, as many a minute as a browser may register: a person books once, a script is stopped
  const rateLimit = {
    // after authentication: the key is the guest
    hook: 'preHandler' as const,
    timeWindow: '1 minute',
    max: () => services.config.registerBrowserRateLimit,
    keyGenerator: (request: FastifyRequest) => (request.guest ? `booking:${request.guest.username}` : `booking:${request.ip}`),
  };

  /** The company of the guest when it offers booking; else the refusal was sent. */
  const bookingCompany = async (request: FastifyRequest, reply: Parameters<typeof fail>[0]) => {
    const guest = guestOf(request);
    const snapshot = await services.companySnapshots.get(guest.companyId);
    if (!snapshot || !snapshot.company.activated) {
      await fail(reply, 403, 'company: the company takes no calls now');
      return null;
    }
    if (!snapshot.company.settings.appointmentBooking) {
      await fail(reply, 403, 'appointmentBooking: this company does not take bookings');
      return null;
    }
    if (snapshot.blocked.has(guest.username)) {
      await fail(reply, 403, 'guest: blocked by the company');
      return null;
    }
    return snapshot.company;
  };

  const slotsOf = async (companyId: number, schedule: Parameters<typeof freeSlots>[0], now: number) => {
    const [agents, booked] = await Promise.all([
      repo.agentIds(companyId),
      repo.bookedTimes(companyId, now, now + (BOOKING_DAYS + 1) * 86_400_000),
    ]);
    return freeSlots(schedule, agents, booked, now);
  };

  app.get(
    '/slots',
    {
      config: { rateLimit },
      schema: {
        tags: ['guest'],
        summary: 'The free times a guest may book (the next 14 days of the company’s working hours, 30-minute slots)',
        security: [{ guestBearer: [] }],
        response: { 200: DataEnvelope(BookingSlots), ...errors(401, 403, 429) },
      },
    },
    async (request, reply) => {
      const company = await bookingCompany(request, reply);
      if (!company) return reply;
      const schedule = company.settings.schedule;
      const slots = await slotsOf(company.id, schedule, services.now());
      return {
        data: {
          timezone: schedule?.timezone || 'UTC',
          slotMinutes: SLOT_MINUTES,
          slots: slots.map((s) => ({ startsAt: new Date(s.startsAt).toISOString() })),
        },
      };
    },
  );

  app.post(
    // '' and not '/': the route is POST /api/booking, with no trailing slash
    '',
    {
      config: { rateLimit },
      schema: {
        tags: ['guest'],
        summary: 'Book a free time: an appointment with one of the company’s agents; the answer carries its link',
        security: [{ guestBearer: [] }],
        body: BookingCreate,
        response: { 201: DataEnvelope(GuestBooking), ...errors(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const guest = guestOf(request);
      const body = request.body;
      const company = await bookingCompany(request, reply);
      if (!company) return reply;
      const name = body.name.trim();
      if (!name) return fail(reply, 400, 'name: your name is required');
      const contact: string[] = [];
      const form = await services.repos.forms.byKind(company.id, 'welcome');
      for (const field of contactFields(form)) {
        const value = body.contact?.[field.key]?.trim() ?? '';
        if (!value) {
          if (field.required) return fail(reply, 400, `contact/${field.key}: required`);
          continue;
        }
        if (field.type === 'email' && !EMAIL.test(value)) return fail(reply, 400, `contact/${field.key}: not an email address`);
        if (field.type === 'tel' && !PHONE.test(value)) return fail(reply, 400, `contact/${field.key}: not a phone number`);
        contact.push(value);
      }
      const report = body.call_id ? await ownedReport(services, reply, guest, body.call_id) : null;
      if (body.call_id && !report) return reply;

      const startsAt = Date.parse(body.startsAt);
      const now = services.now();
      const schedule = company.settings.schedule;
      if (!workingSlots(schedule, now).includes(startsAt)) return fail(reply, 400, 'startsAt: not one of the company’s bookable times (GET /api/booking/slots)');
      const slot = (await slotsOf(company.id, schedule, now)).find((s) => s.startsAt === startsAt);
      if (!slot) return fail(reply, 409, 'startsAt: this time was just taken, choose another');
      const bookedFrom = addressKey(services, request.ip);
      const upcoming = await repo.upcomingBookings(company.id, guest.username, bookedFrom, now);
      if (upcoming.byGuest > 0) return fail(reply, 409, 'guest: you have already booked a time; open its link then');
      if (upcoming.fromAddress >= MAX_UPCOMING_BOOKINGS_PER_ADDRESS) {
        return fail(reply, 429, `address: at most ${MAX_UPCOMING_BOOKINGS_PER_ADDRESS} times booked and not yet begun from one address`);
      }
      const note = [name, ...contact].join(' · ');
      let booked = null;
      // the least booked free agent first; another request may take it at the same moment
      for (const agentId of slot.freeAgents) {
        booked = await repo.book(company.id, { agentId, startsAt, durationMinutes: SLOT_MINUTES, note, callType: body.callType, bookedBy: guest.username, bookedFrom });
        if (booked) break;
      }
      if (!booked) return fail(reply, 409, 'startsAt: this time was just taken, choose another');
      // the guest leaves its queue by booking: reported as booked, not abandoned
      if (report) await services.repos.callReports.markBooked(report.id, now);
      services.events.publish('callStats', { companyId: company.id });
      return reply.code(201).send({
        data: { reference: booked.reference, link: booked.link, startsAt: booked.startsAt, durationMinutes: booked.durationMinutes, callType: body.callType },
      });
    },
  );
}

export default routes({ access: 'guest' }, bookingRoutes);
