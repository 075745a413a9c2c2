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
  Reports,
  Schedule,
} from '@lobby/contracts';
import { apiRequest } from './client.ts';

export type {
  AdminAssignment,
  AdminAssignmentGroup,
  AdminCompany,
  AdminCompanyUpdate,
  AdminUser,
  Appointment,
  Reports,
  Schedule,
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

export const getReports = (from: string, to: string) => apiRequest<Reports>('/console/reports', { query: { from, to } });
export const reportsCsvUrl = (from: string, to: string) => `/api/console/reports.csv?${new URLSearchParams({ from, to }).toString()}`;
