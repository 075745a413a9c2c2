// The console's calls to the Lobby server (cookie session; see apps/server/src/routes/api/console).
import { apiRequest } from '@lobby/call/http';
import type { CompanyDetails, ConsoleSession, ConsoleUser, LoginBody } from '@lobby/contracts';

export type { ConsoleUser, Role } from '@lobby/contracts';

/** `POST /api/console/login` → sets the session cookie. 401 when the email or password is wrong. */
export async function login(email: string, password: string): Promise<ConsoleUser> {
  const data = await apiRequest<ConsoleSession>('/console/login', { method: 'POST', body: { email, password } satisfies LoginBody });
  return data.user;
}

/** `POST /api/console/logout`. */
export async function logout(): Promise<void> {
  await apiRequest<{ loggedOut: boolean }>('/console/logout', { method: 'POST', body: {} });
}

/** `GET /api/console/me`: the user of the session cookie (401 when none). */
export async function me(signal?: AbortSignal): Promise<ConsoleUser> {
  const data = await apiRequest<ConsoleSession>('/console/me', { signal });
  return data.user;
}

/** The company's name for the header (`GET /api/company/details?companyId=`). */
export async function companyName(companyId: number): Promise<string> {
  const data = await apiRequest<Pick<CompanyDetails, 'name'>>('/company/details', { query: { companyId } });
  return data.name;
}
