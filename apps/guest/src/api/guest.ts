// The guest-facing calls the journey makes itself (docs/api.md); the call engine makes the rest.
import { apiRequest } from '@lobby/call/http';

/** Who the guest is to the API: registered by the call engine, reused here. */
export interface GuestSession {
  username: string;
  accessToken: string;
  companyId: number;
  /** the service label (docs/guest-journey.md): the full page (talk) or the embedded widget */
  serviceType?: 'talk' | 'widget';
}

export type FormAnswers = Record<string, string | number | boolean | string[]>;

/** PUT /geo-fence/check: true inside; 403 (outside) and every other failure → false. */
export async function checkGeofence(
  session: GuestSession,
  position: { latitude: string; longitude: string },
): Promise<boolean> {
  try {
    const answer = await apiRequest<{ inside?: boolean }>('/geo-fence/check', {
      method: 'PUT',
      token: session.accessToken,
      body: { lat: position.latitude, lng: position.longitude, companyID: session.companyId },
    });
    return answer?.inside === true;
  } catch {
    return false;
  }
}

/** POST /form-submission/get-submission: `{}` (or an error) means the welcome form is still required. */
export async function welcomeFormRequired(session: GuestSession): Promise<boolean> {
  try {
    const answer = await apiRequest<Record<string, unknown> | null>('/form-submission/get-submission', {
      method: 'POST',
      token: session.accessToken,
      body: {
        companyId: session.companyId,
        guestUsername: session.username,
        serviceType: session.serviceType ?? 'talk',
      },
    });
    return !answer || Object.keys(answer).length === 0;
  } catch {
    return true;
  }
}

export async function submitForm(
  session: GuestSession,
  formId: number | string,
  answers: FormAnswers,
): Promise<void> {
  await apiRequest('/form-submission', {
    method: 'POST',
    token: session.accessToken,
    body: {
      company: session.companyId,
      guestUsername: session.username,
      serviceType: session.serviceType ?? 'talk',
      formId,
      answers,
    },
  });
}

/** POST /rating-form/submissions; `form` null for the simple score (docs/api.md). */
export async function submitRating(
  session: GuestSession,
  report: number,
  form: number | string | null,
  answers: FormAnswers,
): Promise<void> {
  await apiRequest('/rating-form/submissions', {
    method: 'POST',
    token: session.accessToken,
    body: { guestUsername: session.username, report, form, answers },
  });
}
