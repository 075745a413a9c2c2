import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { Assignment, AssignmentGroup, AssignmentType, CompanySettings } from './company.ts';
import { CompanyId } from './common.ts';
import { Role } from './console.ts';

/**
 * Company administration (console users with role admin; appointments and reports also for supervisors
 * and agents where stated). Every route acts on the caller's own company only.
 */

/** GET/PUT /api/admin/company answer: the company's identity and every setting (defaults filled in). */
export const AdminCompany = Type.Composite([
  Type.Object({ id: CompanyId, activated: Type.Boolean(), name: Type.String(), host: Type.String() }),
  CompanySettings,
  Type.Object({ assignments: Type.Array(Assignment), assignmentGroups: Type.Array(AssignmentGroup) }),
]);
export type AdminCompany = Static<typeof AdminCompany>;

/** PUT /api/admin/company: any subset of the company settings, plus the company's display name. */
export const AdminCompanyUpdate = Type.Composite(
  [Type.Partial(CompanySettings), Type.Object({ name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) })],
  { additionalProperties: false, minProperties: 1 },
);
export type AdminCompanyUpdate = Static<typeof AdminCompanyUpdate>;

// ids are PostgreSQL `integer`s: a larger one would fail in the database (500), not as a bad request
export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
export type IdParams = Static<typeof IdParams>;

// Assignments and assignment groups.

export const AdminAssignment = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  type: AssignmentType,
  position: Type.Integer(),
  agentIds: Type.Array(Type.Integer(), { description: 'console users who serve this assignment' }),
});
export type AdminAssignment = Static<typeof AdminAssignment>;

export const AdminAssignmentBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 120 }),
    type: AssignmentType,
    position: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000 })),
    agentIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), { maxItems: 1000 })),
  },
  { additionalProperties: false },
);
export type AdminAssignmentBody = Static<typeof AdminAssignmentBody>;

export const AdminAssignmentGroup = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  position: Type.Integer(),
  assignmentIds: Type.Array(Type.Integer()),
});
export type AdminAssignmentGroup = Static<typeof AdminAssignmentGroup>;

export const AdminAssignmentGroupBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 120 }),
    position: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000 })),
    assignmentIds: Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), { maxItems: 1000 }),
  },
  { additionalProperties: false },
);
export type AdminAssignmentGroupBody = Static<typeof AdminAssignmentGroupBody>;

// Console users.

export const AdminUser = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  name: Type.String(),
  role: Role,
  assignmentIds: Type.Array(Type.Integer()),
});
export type AdminUser = Static<typeof AdminUser>;

const Password = Type.String({ minLength: 10, maxLength: 1024 });
const Email = Type.String({ minLength: 3, maxLength: 320, pattern: '^[^@\\s]+@[^@\\s]+$' });

export const AdminUserCreate = Type.Object(
  {
    email: Email,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    role: Role,
    password: Password,
    assignmentIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), { maxItems: 1000 })),
  },
  { additionalProperties: false },
);
export type AdminUserCreate = Static<typeof AdminUserCreate>;

export const AdminUserUpdate = Type.Object(
  {
    email: Type.Optional(Email),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    role: Type.Optional(Role),
    password: Type.Optional(Password),
    assignmentIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), { maxItems: 1000 })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type AdminUserUpdate = Static<typeof AdminUserUpdate>;

// Appointments.

export const Appointment = Type.Object({
  id: Type.Integer(),
  reference: Type.String(),
  agentId: Type.Integer(),
  agentName: Type.String(),
  startsAt: Type.String({ format: 'date-time' }),
  durationMinutes: Type.Integer(),
  note: Type.String(),
  /** the guest link, relative to the installation's origin: /appointment/{reference} */
  link: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  /** a guest's booking (docs/guest-journey.md "Booking a time instead"): the call it asked for; null when made in the console */
  callType: Type.Union([Type.Literal('video'), Type.Literal('voice'), Type.Null()]),
});
export type Appointment = Static<typeof Appointment>;

export const AppointmentCreate = Type.Object(
  {
    agentId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
    startsAt: Type.String({ format: 'date-time' }),
    durationMinutes: Type.Optional(Type.Integer({ minimum: 5, maximum: 480 })),
    note: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);
export type AppointmentCreate = Static<typeof AppointmentCreate>;

// Reports.

/**
 * The service labels (docs/guest-journey.md) as a filter of the console's call lists: the call page (`talk`;
 * calls reported without a service type count as talk), the embedded widget (`widget`), or both (`all`,
 * the default).
 */
export const ServiceFilter = Type.Union([Type.Literal('talk'), Type.Literal('widget'), Type.Literal('all')], {
  description: 'talk | widget | all (default all)',
});
export type ServiceFilter = Static<typeof ServiceFilter>;

/** The query of the console's lists of calls that only filter by service (recordings). */
export const ServiceQuery = Type.Object({ service: Type.Optional(ServiceFilter) });
export type ServiceQuery = Static<typeof ServiceQuery>;

export const ReportsQuery = Type.Object({
  from: Type.Optional(Type.String({ format: 'date', description: 'first day YYYY-MM-DD (UTC), default 13 days before `to`' })),
  to: Type.Optional(Type.String({ format: 'date', description: 'last day YYYY-MM-DD (UTC), default today' })),
  service: Type.Optional(ServiceFilter),
});
export type ReportsQuery = Static<typeof ReportsQuery>;

export const ReportDay = Type.Object({
  day: Type.String({ description: 'YYYY-MM-DD (UTC)' }),
  calls: Type.Integer(),
  answered: Type.Integer(),
  abandoned: Type.Integer(),
  booked: Type.Integer({ description: 'not answered: the guest left the queue by booking a time' }),
  avgWaitSeconds: Type.Number(),
  avgTalkSeconds: Type.Number(),
  ratings: Type.Integer({ description: 'rated calls' }),
  avgRating: Type.Number({ description: 'mean score 1..5 (0 when none)' }),
});
export type ReportDay = Static<typeof ReportDay>;

export const Reports = Type.Object({
  from: Type.String(),
  to: Type.String(),
  service: ServiceFilter,
  totals: Type.Object({
    calls: Type.Integer(),
    answered: Type.Integer(),
    abandoned: Type.Integer(),
    booked: Type.Integer(),
    avgWaitSeconds: Type.Number(),
    avgTalkSeconds: Type.Number(),
    ratings: Type.Integer(),
    avgRating: Type.Number(),
  }),
  days: Type.Array(ReportDay),
});
export type Reports = Static<typeof Reports>;
