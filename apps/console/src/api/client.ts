// A small typed fetch client for the Lobby server.
// Answers are `{ data: {...} }`; errors are `{ statusCode, error, message }` (docs/architecture.md).

export const API_BASE = '/api';

/** The error body the server sends with every 4xx/5xx answer. */
export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
}

/** Thrown for any failed request. `status` 0 means the network failed before an answer came. */
export class ApiError extends Error {
  readonly status: number;
  readonly error: string;

  constructor(status: number, error: string, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.error = error;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** Bearer token (guest access_token). */
  token?: string;
  signal?: AbortSignal;
  /** Let the request outlive the page (report timestamps on unload). */
  keepalive?: boolean;
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  return typeof value === 'object' && value !== null && 'message' in value && 'statusCode' in value;
}

/** Calls `/api{path}` and returns the answer's `data`. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, query, token, signal, keepalive } = options;
  let url = `${API_BASE}${path}`;
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
    response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal,
      keepalive,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, 'Network Error', cause instanceof Error ? cause.message : String(cause));
  }

  const text = await response.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      if (response.ok) throw new ApiError(response.status, 'Bad Response', 'Failed to parse response body');
    }
  }
  if (!response.ok) {
    if (isErrorBody(parsed)) throw new ApiError(parsed.statusCode, parsed.error, parsed.message);
    throw new ApiError(response.status, response.statusText || 'Error', `HTTP ${response.status}`);
  }
  return (parsed as { data: T } | undefined)?.data as T;
}
