/**
 * The gate's way to each room's Janus node (web/janusGate.ts, docs/operations.md "Scaling"): the room's
 * row names its node (services/media/mediaRooms.ts), the configured nodes give its endpoints, and each
 * node's admin API tells who owns its sessions. A room with no row yet, and a standby token (no room), go
 * to the first node.
 */
import type { JanusRoute, JanusRouter } from '../../web/janusGate.ts';
import type { JanusNodes } from './janusNodes.ts';
import { createJanusSessions } from './janusSessions.ts';
import type { MediaRooms } from './mediaRooms.ts';

export function createJanusRouter(nodes: Pick<JanusNodes, 'endpoints'>, rooms: Pick<MediaRooms, 'nodeOf'>, adminSecret: string): JanusRouter {
  const routes = new Map<string, JanusRoute>();
  const routeOf = (name: string | null): JanusRoute => {
    const node = nodes.endpoints(name);
    let route = routes.get(node.name);
    if (!route) {
      route = { name: node.name, wsUrl: node.wsUrl, httpUrl: node.httpUrl, sessions: createJanusSessions(node.adminUrl, adminSecret) };
      routes.set(node.name, route);
    }
    return route;
  };
  return async (room) => routeOf(room === null ? null : await rooms.nodeOf(room));
}
