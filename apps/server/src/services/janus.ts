/** Janus gateway probe (GET {JANUS_HTTP_URL}/info). */
export interface JanusClient {
  status(): Promise<boolean>;
}

export function createJanusHttpClient(httpUrl: string, timeoutMs = 1500): JanusClient {
  const base = httpUrl.replace(/\/+$/, '');
  return {
    async status() {
      try {
        const res = await fetch(`${base}/info`, { signal: AbortSignal.timeout(timeoutMs) });
        if (res.status !== 200) return false;
        const body = (await res.json()) as { janus?: string };
        return body.janus === 'server_info';
      } catch {
        return false;
      }
    },
  };
}
