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
