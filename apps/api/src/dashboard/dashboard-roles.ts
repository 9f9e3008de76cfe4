/** A member's role, modelled on the teams of the big payment dashboards (docs/dashboard.md has the table). */
export const MEMBER_ROLES = ['owner', 'admin', 'developer', 'operations', 'approver', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const isMemberRole = (value: unknown): value is MemberRole => typeof value === 'string' && (MEMBER_ROLES as readonly string[]).includes(value);

/** Who may change a member's role or remove them: an admin may not touch an owner, nor make one. */
export function mayManage(actor: MemberRole, target: MemberRole, newRole?: MemberRole): boolean {
  if (actor === 'owner') return true;
  if (actor !== 'admin') return false;
  return target !== 'owner' && newRole !== 'owner';
}
