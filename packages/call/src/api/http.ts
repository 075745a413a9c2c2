/** The JSON-over-HTTP helper the engine's API clients share: answers are `{ data: … }`. */
export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

export interface HttpOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
}

export async function requestJson<T>(
  options: HttpOptions,
  method: string,
  path: string,
  body?: unknown,
  init: { token?: string | null; keepalive?: boolean } = {},
): Promise<T> {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const response = await doFetch(`${options.baseUrl ?? '/api'}${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    ...(init.keepalive ? { keepalive: true } : {}),
  });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    const message =
      (parsed as { message?: string } | null)?.message ?? response.statusText ?? 'request failed';
    throw new ApiError(response.status, message);
  }
  return ((parsed as { data?: T } | null)?.data ?? null) as T;
}

export type UploadType = 'image' | 'document';

/** The upload type for a file: images by MIME type, everything else as a document. */
export function uploadTypeOf(file: { type: string }): UploadType {
  return /^image\/(png|jpeg|webp|gif)$/.test(file.type) ? 'image' : 'document';
}

/**
 * POST /upload/{type} (SPEC.md §7): multipart with the file under the type's name, companyId and
 * forChat=true. Resolves with data.fileUrl; on failure throws an ApiError with the HTTP status (0 when
 * the request itself failed).
 */
export async function uploadFile(
  options: HttpOptions,
  type: UploadType,
  file: Blob & { name?: string },
  companyId: number,
  init: { token?: string | null; guestUsername?: string } = {},
): Promise<string> {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const form = new FormData();
  form.append('companyId', String(companyId));
  form.append('forChat', 'true');
  // a console user names the call's guest, so that this guest (and no other) may read the file
  if (init.guestUsername) form.append('guestUsername', init.guestUsername);
  form.append(type, file, file.name ?? type);
  let response: Response;
  try {
    response = await doFetch(`${options.baseUrl ?? '/api'}/upload/${type}`, {
      method: 'POST',
      body: form,
      credentials: 'same-origin',
      ...(init.token ? { headers: { authorization: `Bearer ${init.token}` } } : {}),
    });
  } catch {
    throw new ApiError(0, 'upload failed');
  }
  if (!response.ok) throw new ApiError(response.status, `upload failed (${response.status})`);
  const body = (await response.json().catch(() => null)) as { data?: { fileUrl?: string } } | null;
  const url = body?.data?.fileUrl;
  if (!url) throw new ApiError(response.status, 'upload answer without fileUrl');
  return url;
}

/** The types a chat file may be shown as; anything else becomes an opaque download. */
const SHOWN_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'application/pdf'];

/**
 * GET /api/files/{id} with the guest's bearer token: an <img> or a link cannot carry the token, so the
 * guest reads its call's files into a Blob (shown through a blob: URL). The server decides who may read
 * (403/404 otherwise, thrown as an ApiError); the Blob's type is pinned to the chat's formats.
 */
export async function fetchFile(options: HttpOptions, url: string, init: { token?: string | null } = {}): Promise<Blob> {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  let response: Response;
  try {
    response = await doFetch(url, {
      credentials: 'same-origin',
      ...(init.token ? { headers: { authorization: `Bearer ${init.token}` } } : {}),
    });
  } catch {
    throw new ApiError(0, 'file download failed');
  }
  if (!response.ok) throw new ApiError(response.status, `file download failed (${response.status})`);
  const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const bytes = await response.arrayBuffer();
  return new Blob([bytes], { type: SHOWN_TYPES.includes(type) ? type : 'application/octet-stream' });
}
