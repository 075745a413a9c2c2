// The console's calls to the Lobby server (cookie session; see apps/server/src/routes/api/console).
import { apiRequest, uploadFile } from '@lobby/call/http';
import type { CompanyDetails, ConsoleSession, ConsoleSessionStatus, ConsoleUser, LoginBody, ProfileImageAnswer, ProfileImageBody } from '@lobby/contracts';

export type { ConsoleUser, Role } from '@lobby/contracts';

/**
 * The user's own picture: uploads the image (POST /api/upload/image checks its type) and makes it the
 * picture (`PUT /api/console/profile-image`, at most 1 MB). Resolves with its address.
 */
export async function setProfilePicture(file: File, companyId: number): Promise<string | null> {
  const fileUrl = await uploadFile({}, 'image', file, companyId);
  const body: ProfileImageBody = { uploadId: fileUrl.split('/').pop() ?? '' };
  const data = await apiRequest<ProfileImageAnswer>('/console/profile-image', { method: 'PUT', body });
  return data.profileImageUrl;
}

/** `POST /api/console/login` → sets the session cookie. 401 when the email or password is wrong. */
export async function login(email: string, password: string): Promise<ConsoleUser> {
  const data = await apiRequest<ConsoleSession>('/console/login', { method: 'POST', body: { email, password } satisfies LoginBody });
  return data.user;
}

/** `POST /api/console/logout`. */
export async function logout(): Promise<void> {
  await apiRequest<{ loggedOut: boolean }>('/console/logout', { method: 'POST', body: {} });
}

/**
 * `GET /api/console/session`: the user of the session cookie, or null when there is none or it expired.
 * Answered 200 either way, so a visit before sign-in leaves no failed request in the browser's console.
 */
export async function sessionUser(signal?: AbortSignal): Promise<ConsoleUser | null> {
  const data = await apiRequest<ConsoleSessionStatus>('/console/session', { signal });
  return data.signedIn ? data.user : null;
}

/** The company's name for the header (`GET /api/company/details?companyId=`). */
export async function companyName(companyId: number): Promise<string> {
  const data = await apiRequest<Pick<CompanyDetails, 'name'>>('/company/details', { query: { companyId } });
  return data.name;
}
