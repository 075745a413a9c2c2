// The console's calls to the Lobby server (cookie session; see apps/server/src/routes/api/console).
// Local types for now; they will come from @lobby/contracts.
import { apiRequest, uploadFile } from '@lobby/call/http';

export type Role = 'agent' | 'supervisor' | 'admin';

export interface ConsoleUser {
  id: number;
  email: string;
  name: string;
  role: Role;
  companyId: number;
  jid: string;
  assignmentIds?: number[];
  /** the user's picture, which guests see (GET /api/profile-images/{id}); absent: its initial */
  profileImageUrl?: string;
}

/**
 * The user's own picture: uploads the image (POST /api/upload/image checks its type) and makes it the
 * picture (`PUT /api/console/profile-image`, at most 1 MB). Resolves with its address.
 */
export async function setProfilePicture(file: File, companyId: number): Promise<string | null> {
  const fileUrl = await uploadFile({}, 'image', file, companyId);
  const uploadId = fileUrl.split('/').pop() ?? '';
  const data = await apiRequest<{ profileImageUrl: string | null }>('/console/profile-image', { method: 'PUT', body: { uploadId } });
  return data.profileImageUrl;
}

/** `POST /api/console/login` → sets the session cookie. 401 when the email or password is wrong. */
export async function login(email: string, password: string): Promise<ConsoleUser> {
  const data = await apiRequest<{ user: ConsoleUser }>('/console/login', { method: 'POST', body: { email, password } });
  return data.user;
}

/** `POST /api/console/logout`. */
export async function logout(): Promise<void> {
  await apiRequest<{ loggedOut: boolean }>('/console/logout', { method: 'POST', body: {} });
}

/** `GET /api/console/me`: the user of the session cookie (401 when none). */
export async function me(signal?: AbortSignal): Promise<ConsoleUser> {
  const data = await apiRequest<{ user: ConsoleUser }>('/console/me', { signal });
  return data.user;
}

/** The company's name for the header (`GET /api/company/details?companyId=`). */
export async function companyName(companyId: number): Promise<string> {
  const data = await apiRequest<{ name: string }>('/company/details', { query: { companyId } });
  return data.name;
}
