// Company administration and reports (cookie session; see docs/api.md "Console and administration").
import type {
  AdminAssignment,
  AdminAssignmentBody,
  AdminAssignmentGroup,
  AdminAssignmentGroupBody,
  AdminCompany,
  AdminCompanyUpdate,
  AdminUser,
  AdminUserCreate,
  AdminUserUpdate,
  Appointment,
  AppointmentCreate,
  BlockedGuest,
  FieldType,
  FormDefinition,
  GeofenceZone,
  GeofenceZoneInput,
  Quota,
  QuotaPeriod,
  FormInput,
  Reports,
  Schedule,
  ServiceFilter,
} from '@lobby/contracts';
import { apiRequest } from '@lobby/call/http';

export type {
  AdminAssignment,
  AdminAssignmentGroup,
  AdminCompany,
  AdminCompanyUpdate,
  AdminUser,
  Appointment,
  Reports,
  Schedule,
  ServiceFilter,
};

export const getCompany = () => apiRequest<AdminCompany>('/admin/company');
export const putCompany = (patch: AdminCompanyUpdate) => apiRequest<AdminCompany>('/admin/company', { method: 'PUT', body: patch });

export const listAssignments = async () => (await apiRequest<{ assignments: AdminAssignment[] }>('/admin/assignments')).assignments;
export const createAssignment = (body: AdminAssignmentBody) => apiRequest<{ id: number }>('/admin/assignments', { method: 'POST', body });
export const updateAssignment = (id: number, body: AdminAssignmentBody) => apiRequest<{ id: number }>(`/admin/assignments/${id}`, { method: 'PUT', body });
export const deleteAssignment = (id: number) => apiRequest<{ deleted: boolean }>(`/admin/assignments/${id}`, { method: 'DELETE' });

export const listGroups = async () => (await apiRequest<{ groups: AdminAssignmentGroup[] }>('/admin/assignment-groups')).groups;
export const createGroup = (body: AdminAssignmentGroupBody) => apiRequest<{ id: number }>('/admin/assignment-groups', { method: 'POST', body });
export const updateGroup = (id: number, body: AdminAssignmentGroupBody) => apiRequest<{ id: number }>(`/admin/assignment-groups/${id}`, { method: 'PUT', body });
export const deleteGroup = (id: number) => apiRequest<{ deleted: boolean }>(`/admin/assignment-groups/${id}`, { method: 'DELETE' });

export const listUsers = async () => (await apiRequest<{ users: AdminUser[] }>('/admin/users')).users;
export const createUser = (body: AdminUserCreate) => apiRequest<{ id: number }>('/admin/users', { method: 'POST', body });
export const updateUser = (id: number, body: AdminUserUpdate) => apiRequest<{ id: number }>(`/admin/users/${id}`, { method: 'PUT', body });
export const deleteUser = (id: number) => apiRequest<{ deleted: boolean }>(`/admin/users/${id}`, { method: 'DELETE' });

export const getSchedule = async () => (await apiRequest<{ schedule: Schedule | null }>('/admin/schedule')).schedule;
export const putSchedule = async (schedule: Schedule | null) =>
  (await apiRequest<{ schedule: Schedule | null }>('/admin/schedule', { method: 'PUT', body: { schedule } })).schedule;

export const listAppointments = async () => (await apiRequest<{ appointments: Appointment[] }>('/admin/appointments')).appointments;
export const createAppointment = (body: AppointmentCreate) => apiRequest<Appointment>('/admin/appointments', { method: 'POST', body });
export const deleteAppointment = (id: number) => apiRequest<{ deleted: boolean }>(`/admin/appointments/${id}`, { method: 'DELETE' });

export const getReports = (from: string, to: string, service: ServiceFilter = 'all') =>
  apiRequest<Reports>('/console/reports', { query: { from, to, service } });
export const reportsCsvUrl = (from: string, to: string, service: ServiceFilter = 'all') =>
  `/api/console/reports.csv?${new URLSearchParams({ from, to, service }).toString()}`;

// Forms (routes of the service-API engineer; docs/api.md "Forms").
export type { FieldType, FormDefinition, FormInput };
export const listForms = async () => (await apiRequest<{ forms: FormDefinition[] }>('/admin/forms')).forms;
export const createForm = (body: FormInput) => apiRequest<FormDefinition>('/admin/forms', { method: 'POST', body });
export const updateForm = (id: number, body: FormInput) => apiRequest<FormDefinition>(`/admin/forms/${id}`, { method: 'PUT', body });
export const deleteForm = (id: number) => apiRequest<{ id: number; deleted: true }>(`/admin/forms/${id}`, { method: 'DELETE' });

// Guest rules (routes of the service-API engineer): call quotas, blocked guests, geofence zones.
export type { BlockedGuest, GeofenceZone, GeofenceZoneInput, Quota, QuotaPeriod };
export const listQuotas = async () => (await apiRequest<{ quotas: Quota[] }>('/admin/quotas')).quotas;
export const createQuota = (body: { period: QuotaPeriod; limit: number }) => apiRequest<Quota>('/admin/quotas', { method: 'POST', body });
export const deleteQuota = (id: number) => apiRequest<unknown>(`/admin/quotas/${id}`, { method: 'DELETE' });
export const listBlocked = async () => (await apiRequest<{ blockedGuests: BlockedGuest[] }>('/admin/blocked-guests')).blockedGuests;
export const blockGuest = (body: { guestUsername: string; reason: string }) => apiRequest<BlockedGuest>('/admin/blocked-guests', { method: 'POST', body });
export const unblockGuest = (id: number) => apiRequest<unknown>(`/admin/blocked-guests/${id}`, { method: 'DELETE' });
export const listZones = async () => (await apiRequest<{ zones: GeofenceZone[] }>('/admin/geofence-zones')).zones;
export const createZone = (body: GeofenceZoneInput) => apiRequest<GeofenceZone>('/admin/geofence-zones', { method: 'POST', body });
export const deleteZone = (id: number) => apiRequest<unknown>(`/admin/geofence-zones/${id}`, { method: 'DELETE' });

// Recordings: one playable file per conversation (a call resumed after hold is one); supervisors and admins.
export interface Recording {
  callId: string;
  serviceType: 'talk' | 'widget';
  size: number;
  createdAt: number;
  url: string;
  /** every participant apart (absent on recordings made before the mixed file) */
  tracksUrl?: string;
  /** the conversation's guest (null: its report is gone) and the name it gave on the welcome form */
  guestUsername: string | null;
  guestName: string | null;
  /** the console user who answered */
  agentName: string | null;
  /** talk time across the hold chain (null: not ended) */
  talkSeconds: number | null;
  rating: { score: number | null; comment: string | null } | null;
}
export const listRecordings = async (service: ServiceFilter = 'all') =>
  (await apiRequest<{ recordings: Recording[] }>('/console/recordings', { query: { service } })).recordings;
export const deleteRecording = (callId: string) =>
  apiRequest<{ callId: string; deleted: true }>(`/console/recordings/${encodeURIComponent(callId)}`, { method: 'DELETE' });
