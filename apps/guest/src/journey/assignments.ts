// Which assignments and groups the selection screen offers (docs/guest-journey.md: assignments, groups,
// filter all | queue | appointment).
import type { Assignment, AssignmentGroup, Company } from '../api/company.ts';

/** The assignments the company's filter lets guests call from "/" (appointment ones need their link). */
export function visibleAssignments(company: Pick<Company, 'assignments' | 'assignmentFilter'> | null): Assignment[] {
  const all = company?.assignments ?? [];
  const filter = company?.assignmentFilter ?? 'all';
  if (filter === 'all') return all;
  return all.filter((a) => (a.type ?? 'queue') === filter);
}

/** Groups that still have a visible assignment, each with those assignments. */
export function visibleGroups(
  company: Pick<Company, 'assignments' | 'assignmentFilter' | 'assignmentGroups'> | null,
): Array<{ group: AssignmentGroup; assignments: Assignment[] }> {
  const visible = visibleAssignments(company);
  return (company?.assignmentGroups ?? [])
    .map((group) => ({
      group,
      assignments: visible.filter((a) => group.assignmentIds.some((id) => String(id) === String(a.id))),
    }))
    .filter((g) => g.assignments.length > 0);
}
