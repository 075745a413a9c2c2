import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Role } from '@lobby/contracts';

const RANK: Record<Role, number> = { agent: 0, supervisor: 1, admin: 2 };

export const hasRole = (role: Role, min: Role) => RANK[role] >= RANK[min];

/**
 * A route-level preValidation hook for `access: 'console'` routes: it runs after the global auth hook has
 * set `request.consoleUser`, and before body validation, so a console user below `min` learns nothing about
 * the shape of the request (403 whatever the body).
 */
export function requireRole(min: Role) {
  return async function roleGuard(request: FastifyRequest, reply: FastifyReply) {
    const user = request.consoleUser;
    if (!user) return reply.code(401).send({ statusCode: 401, error: 'Unauthorized', message: 'lobby_session: not logged in' });
    if (!hasRole(user.role, min)) {
      return reply.code(403).send({ statusCode: 403, error: 'Forbidden', message: `role: ${min} or higher is required` });
    }
    return undefined;
  };
}
