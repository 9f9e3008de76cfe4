import type { Role } from './session-types';

// Which roles each part of the dashboard admits, copied from the `x-roles` of
// the operation named beside it in openapi/dashboard-api.yaml (access.spec.ts
// fails when they part). The server enforces them; the UI only hides what a
// member's role would be refused.
export const ACCESS = {
  overview: { operationId: 'getOverview', roles: ['owner', 'admin', 'developer', 'operations', 'approver', 'viewer'] },
  readKeys: { operationId: 'listKeys', roles: ['owner', 'admin', 'developer', 'viewer'] },
  manageKeys: { operationId: 'createKey', roles: ['owner', 'admin', 'developer'] },
  readEndpoints: { operationId: 'listEndpoints', roles: ['owner', 'admin', 'developer', 'viewer'] },
  manageEndpoints: { operationId: 'createEndpoint', roles: ['owner', 'admin', 'developer'] },
  readTeam: { operationId: 'listMembers', roles: ['owner', 'admin', 'developer', 'operations', 'approver', 'viewer'] },
  manageTeam: { operationId: 'inviteMember', roles: ['owner', 'admin'] },
  readSecurityLog: { operationId: 'listSecurityLog', roles: ['owner', 'admin'] },
  approve: { operationId: 'listApprovals', roles: ['owner', 'admin', 'approver'] },
  readPayouts: { operationId: 'listPayouts', roles: ['owner', 'admin', 'operations', 'approver', 'viewer'] },
  makePayouts: { operationId: 'createPayout', roles: ['owner', 'admin', 'operations'] },
  readBalance: { operationId: 'getBalance', roles: ['owner', 'admin', 'developer', 'operations', 'approver', 'viewer'] },
  readSettlements: { operationId: 'listSettlements', roles: ['owner', 'admin', 'developer', 'operations', 'approver', 'viewer'] },
  manageSettlementSchedule: { operationId: 'setSettlementSchedule', roles: ['owner', 'admin'] },
  manageSettlementAccount: { operationId: 'setSettlementAccount', roles: ['owner'] },
  settleNow: { operationId: 'createSettlement', roles: ['owner', 'admin'] },
  readPayins: { operationId: 'listPayins', roles: ['owner', 'admin', 'developer', 'operations', 'viewer'] },
  refund: { operationId: 'createRefund', roles: ['owner', 'admin', 'operations'] },
  exportReports: { operationId: 'downloadExport', roles: ['owner', 'admin', 'developer', 'operations', 'approver', 'viewer'] },
} as const satisfies Record<string, { operationId: string; roles: readonly Role[] }>;

export type Capability = keyof typeof ACCESS;

/** Whether a member of this role may use the capability. */
export function can(role: Role, capability: Capability): boolean {
  return (ACCESS[capability].roles as readonly Role[]).includes(role);
}

/** The roles a member of this role may give to others: only an owner makes an owner. */
export function assignableRoles(role: Role): Role[] {
  const all: Role[] = ['owner', 'admin', 'developer', 'operations', 'approver', 'viewer'];
  return role === 'owner' ? all : all.filter((candidate) => candidate !== 'owner');
}
