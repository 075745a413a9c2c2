/**
 * Janus probe for GET /api/health: every configured node's GET {http}/info (docs/operations.md "Health").
 * One node that answers is enough for new calls (they are placed on a serving node); the health answer
 * names each node so that an operator sees a lost one.
 */
export interface JanusNodeStatus {
  name: string;
  up: boolean;
}

export interface JanusClient {
  /** each configured node, in the configured order, and whether it answered */
  status(): Promise<JanusNodeStatus[]>;
}

async function answersInfo(httpUrl: string, timeoutMs: number): Promise<boolean> {
  try {
    const res = await fetch(`${httpUrl.replace(/\/+$/, '')}/info`, { signal: AbortSignal.timeout(timeoutMs) });
    if (res.status !== 200) return false;
    const body = (await res.json()) as { janus?: string };
    return body.janus === 'server_info';
  } catch {
    return false;
  }
}

export function createJanusHttpClient(nodes: { name: string; httpUrl: string }[], timeoutMs = 1500): JanusClient {
  return {
    status: () => Promise.all(nodes.map(async (node) => ({ name: node.name, up: await answersInfo(node.httpUrl, timeoutMs) }))),
  };
}
