/**
 * The one HTTP client of Lobby's browsers (the guest app, the console and the call engine): JSON over
 * `/api`, answers `{ data: … }`, errors `{ statusCode, error, message }` (docs/architecture.md). The apps
 * import it as `@lobby/call/http`, which brings nothing else of the engine into their first load.
 */
import type { UploadType } from '@lobby/contracts';

/** The error body the server sends with every 4xx/5xx answer. */
export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
}

/** Thrown for any failed request. `status` 0 means the network failed before an answer came. */
export class ApiError extends Error {
  readonly status: number;
  /** the server's error name ("Bad Request", …), or what failed on the client side */
  readonly error: string;

  constructor(status: number, message: string, error = '') {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.error = error;
  }
}

export const API_BASE = '/api';

export interface HttpOptions {
  /** default `/api` */
  baseUrl?: string;
  /** tests inject one */
  fetch?: typeof fetch;
}

export interface RequestOptions extends HttpOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** Bearer token (the guest's access_token). */
  token?: string | null;
  signal?: AbortSignal;
  /** Let the request outlive the page (report timestamps on unload). */
  keepalive?: boolean;
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  return typeof value === 'object' && value !== null && 'message' in value && 'statusCode' in value;
}

/** Calls `{baseUrl}{path}` and returns the answer's `data`. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, query, token, signal, keepalive } = options;
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  let url = `${options.baseUrl ?? API_BASE}${path}`;
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
    const text = params.toString();
    if (text) url += `?${text}`;
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await doFetch(url, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      ...(signal ? { signal } : {}),
      ...(keepalive ? { keepalive: true } : {}),
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, cause instanceof Error ? cause.message : String(cause), 'Network Error');
  }

  const text = await response.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      if (response.ok) throw new ApiError(response.status, 'Failed to parse response body', 'Bad Response');
    }
  }
  if (!response.ok) {
    if (isErrorBody(parsed)) throw new ApiError(parsed.statusCode, parsed.message, parsed.error);
    throw new ApiError(response.status, `HTTP ${response.status}`, response.statusText || 'Error');
  }
  return ((parsed as { data?: T } | undefined)?.data ?? null) as T;
}

/** The engine's form of apiRequest: method, path and body as arguments. */
export function requestJson<T>(
  options: HttpOptions,
  method: NonNullable<RequestOptions['method']>,
  path: string,
  body?: unknown,
  init: { token?: string | null; keepalive?: boolean } = {},
): Promise<T> {
  return apiRequest<T>(path, { ...options, method, body, ...init });
}

/** The upload type for a file: images by MIME type, everything else as a document. */
export function uploadTypeOf(file: { type: string }): UploadType {
  return /^image\/(png|jpeg|webp|gif)$/.test(file.type) ? 'image' : 'document';
}

/**
 * POST /upload/{type} (docs/api.md): multipart with the file under the type's name, companyId and
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
