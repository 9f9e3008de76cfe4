import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { ACCESS, assignableRoles, can } from './access';

interface Operation {
  operationId?: string;
  'x-roles'?: string[];
}

const contract = parse(readFileSync(path.join(__dirname, '../../../../openapi/dashboard-api.yaml'), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
};
const operations = new Map<string, Operation>();
for (const methods of Object.values(contract.paths)) {
  for (const operation of Object.values(methods)) {
    if (typeof operation === 'object' && operation.operationId !== undefined) operations.set(operation.operationId, operation);
  }
}

describe('the dashboard hides what the contract refuses', () => {
  it.each(Object.entries(ACCESS))('%s admits the x-roles of its operation', (_name, { operationId, roles }) => {
    const operation = operations.get(operationId);
    expect(operation).toBeDefined();
    expect([...roles].sort()).toEqual([...(operation?.['x-roles'] ?? [])].sort());
  });

  it.each([
    ['a viewer reads keys but does not create them', { role: 'viewer', capability: 'readKeys', want: true }],
    ['a viewer reads keys but does not create them (create)', { role: 'viewer', capability: 'manageKeys', want: false }],
    ['an approver approves', { role: 'approver', capability: 'approve', want: true }],
    ['a developer does not approve', { role: 'developer', capability: 'approve', want: false }],
    ['an admin reads the security log', { role: 'admin', capability: 'readSecurityLog', want: true }],
    ['operations does not read the security log', { role: 'operations', capability: 'readSecurityLog', want: false }],
  ] as const)('%s', (_name, { role, capability, want }) => {
    expect(can(role, capability)).toBe(want);
  });

  it('only an owner may make an owner', () => {
    expect(assignableRoles('owner')).toContain('owner');
    expect(assignableRoles('admin')).not.toContain('owner');
  });
});
