/**
 * The rate limit of POST /api/guest/register and /api/guest-auth (docs/security.md "Guest
 * registration"). One limit per client address turned real visitors away: a company or a mobile
 * carrier puts hundreds of people behind one address, and every one of them registers again on each
 * visit and page load. What a registration costs is a new guest and its rooms; a browser already
 * registered with the company costs neither (same username, its rooms provisioned again). So:
 * - a browser the company already knows is limited on its own (`registerBrowserRateLimit` a minute per
 *   browser id: page loads and reconnects, not a flood of ejabberd provisioning), and never uses up its
 *   address's share;
 * - only new browsers count against their address (`registerRateLimit` a minute, 600 by default: ten
 *   new visitors a second behind one address).
 * The key is found after validation (preHandler), from the body's guestId and company.
 */
import type { FastifyRequest } from 'fastify';
import type { Services } from './index.ts';
import { hashGuestId, resolveCompany } from './guests.ts';

const BROWSER = 'browser:';

export function guestRateLimit(services: Services) {
  return {
    hook: 'preHandler' as const,
    timeWindow: '1 minute',
    async keyGenerator(request: FastifyRequest): Promise<string> {
      const body = (request.body ?? {}) as { guestId?: unknown; companyId?: unknown };
      if (typeof body.guestId === 'string') {
        const company = await resolveCompany(services, request, typeof body.companyId === 'number' ? body.companyId : undefined);
        const hash = hashGuestId(body.guestId);
        if (company && (await services.repos.guests.byIdHash(company.id, hash))) return `${BROWSER}${company.id}:${hash}`;
      }
      return `address:${request.ip}`;
    },
    max: (_request: FastifyRequest, key: string): number =>
      key.startsWith(BROWSER) ? services.config.registerBrowserRateLimit : services.config.registerRateLimit,
  };
}
