import type { Role } from '../../api/console.ts';

const RANK: Record<Role, number> = { agent: 0, supervisor: 1, admin: 2 };

/** Whether `role` is `min` or higher (agent < supervisor < admin). */
export const hasRole = (role: Role, min: Role): boolean => RANK[role] >= RANK[min];
