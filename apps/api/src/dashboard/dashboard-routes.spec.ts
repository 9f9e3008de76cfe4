import * as fs from 'node:fs';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod, type Type } from '@nestjs/common';
import { DASHBOARD_CONTRACT_PATH } from '@paysign/contracts/testing';
import { parse } from 'yaml';
import { DASHBOARD_ACCESS, type DashboardAccess } from './dashboard-access';
import { DashboardAppController } from './dashboard-app.controller';
import { DashboardModule } from './dashboard.module';

type ContractOperation = { 'x-roles': string[]; 'x-stages'?: string[]; 'x-fresh-factor'?: boolean };
const contract = parse(fs.readFileSync(DASHBOARD_CONTRACT_PATH, 'utf8')) as { paths: Record<string, Record<string, ContractOperation>> };

/** Every API operation the dashboard's controllers declare: `METHOD /path` (in the contract's form) to its access, or null for an open one. */
function declaredOperations(): Map<string, DashboardAccess | null> {
  const controllers = (Reflect.getMetadata('controllers', DashboardModule) as Type[]).filter((c) => c !== DashboardAppController);
  const found = new Map<string, DashboardAccess | null>();
  for (const controller of controllers) {
    const base = String(Reflect.getMetadata(PATH_METADATA, controller)).replace(/^dashboard\/api/, '');
    for (const name of Object.getOwnPropertyNames(controller.prototype)) {
      const handler = (controller.prototype as Record<string, unknown>)[name];
      if (name === 'constructor' || typeof handler !== 'function' || Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
      const sub = String(Reflect.getMetadata(PATH_METADATA, handler));
      const path = `${base}${sub === '/' ? '' : `/${sub}`}`.replace(/:([A-Za-z]+)/g, '{$1}') || '/';
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number] as string;
      found.set(`${method} ${path}`, (Reflect.getMetadata(DASHBOARD_ACCESS, handler) as DashboardAccess | undefined) ?? null);
    }
  }
  return found;
}

describe("the dashboard's routes and its contract", () => {
  const declared = declaredOperations();
  const documented = Object.entries(contract.paths).flatMap(([path, operations]) => Object.entries(operations).filter(([method]) => method !== 'parameters').map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation] as const));

  it('serve exactly the operations the contract documents', () => {
    expect([...declared.keys()].sort()).toEqual(documented.map(([key]) => key).sort());
  });

  it.each(documented)('%s admits the roles, stages and freshness its x-roles, x-stages and x-fresh-factor name', (key, operation) => {
    const access = declared.get(key);
    if (operation['x-roles'].includes('none')) {
      expect(access).toBeNull();
      return;
    }
    expect(access).not.toBeNull();
    expect(access?.roles === 'any' ? ['any'] : [...(access?.roles ?? [])].sort()).toEqual([...operation['x-roles']].sort());
    expect([...(access?.stages ?? ['active'])].sort()).toEqual([...(operation['x-stages'] ?? ['active'])].sort());
    expect(access?.freshFactor ?? false).toBe(operation['x-fresh-factor'] ?? false);
  });
});
