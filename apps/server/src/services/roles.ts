import type { Role } from '@lobby/contracts';

const RANK: Record<Role, number> = { agent: 0, supervisor: 1, admin: 2 };

/**
 * Whether a console role is at least `min` (agent < supervisor < admin). A route's lowest role is its
 * `config.role` (its file's `routes({ access, role })`), checked by the auth plugin with the session.
 */
export const hasRole = (role: Role, min: Role) => RANK[role] >= RANK[min];
