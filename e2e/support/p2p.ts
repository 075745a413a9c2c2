/**
 * The p2p call method on the test stack (docs/protocol.md "p2p"): switching the demo company
 * to it through the admin API, what Janus holds meanwhile, and how a page's media connection is routed.
 */
import { expect, type Page } from '@playwright/test';
import { BASE_URL, consoleLogin, DEMO_ADMIN } from './api.ts';
import { LOOPBACK_ICE_INIT_SCRIPT } from './loopbackIce.ts';
import { janusAdmin } from './stack.ts';

/** Sets the demo company's settings as its admin does in the console (PUT /api/admin/company). */
export async function setCompany(settings: Record<string, unknown>): Promise<Response> {
  const cookie = await consoleLogin(DEMO_ADMIN);
  return fetch(`${BASE_URL}/api/admin/company`, {
    method: 'PUT',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify(settings),
  });
}

export async function useP2P(on: boolean): Promise<void> {
  const response = await setCompany(on ? { callMethod: 'p2p', recordCalls: false } : { callMethod: 'mediaServer', recordCalls: true });
  expect(response.status, await response.text()).toBe(200);
}

/** The sessions Janus holds right now (admin API list_sessions). */
export async function janusSessions(): Promise<number[]> {
  return (await janusAdmin<{ sessions?: number[] }>({ janus: 'list_sessions' })).sessions ?? [];
}

/** The Janus sessions open now that were not in `earlier` (an earlier journey's wait out their reclaim time). */
export async function newJanusSessions(earlier: readonly number[]): Promise<number[]> {
  return (await janusSessions()).filter((id) => !earlier.includes(id));
}

/** The loopback script, plus every peer connection forced through the TURN relay (iceTransportPolicy). */
export const RELAY_ONLY_INIT_SCRIPT = `${LOOPBACK_ICE_INIT_SCRIPT}
(() => {
  const Loopback = window.RTCPeerConnection;
  class RelayOnly extends Loopback {
    constructor(config, ...rest) {
      super({ ...(config || {}), iceTransportPolicy: 'relay' }, ...rest);
    }
  }
  window.RTCPeerConnection = RelayOnly;
})();`;

/** The candidate types of each open peer connection's selected pair (e.g. 'host', 'relay'). */
export async function selectedPairs(page: Page): Promise<{ local: string; remote: string; iceServers: string }[]> {
  return page.evaluate(async () => {
    const pcs = ((window as unknown as { __lobbyPeerConnections?: RTCPeerConnection[] }).__lobbyPeerConnections ?? []).filter(
      (pc) => pc.connectionState !== 'closed',
    );
    const out: { local: string; remote: string; iceServers: string }[] = [];
    for (const pc of pcs) {
      const stats = new Map<string, Record<string, unknown>>();
      (await pc.getStats()).forEach((s: Record<string, unknown>) => stats.set(String(s.id), s));
      const transport = [...stats.values()].find((s) => s.type === 'transport' && s.selectedCandidatePairId);
      const pair = transport ? stats.get(String(transport.selectedCandidatePairId)) : undefined;
      const type = (id: unknown) => {
        const candidateType = stats.get(String(id))?.candidateType;
        return typeof candidateType === 'string' ? candidateType : 'none';
      };
      const servers = pc.getConfiguration().iceServers ?? [];
      out.push({
        local: pair ? type(pair.localCandidateId) : 'none',
        remote: pair ? type(pair.remoteCandidateId) : 'none',
        iceServers: servers.flatMap((s) => (Array.isArray(s.urls) ? s.urls : [s.urls])).join(' '),
      });
    }
    return out;
  });
}
