import { MerchantAdmin } from '../../src/merchants/merchant-admin';
import { MerchantStore } from '../../src/merchants/merchant-store';
import { importMerchantsFile } from '../../src/merchants/merchants-import';
import { MerchantsSync } from '../../src/merchants/merchants-sync';
import type { TestApp } from './test-app';

const TEST_ACTOR = { actor: 'test', channel: 'command' } as const;

/** Imports a merchants file into the app's database, as `merchants import` does, and loads it at once, as SIGHUP does. */
export async function importMerchants(api: TestApp, file: string): Promise<string[]> {
  const report = await importMerchantsFile(api.app.get(MerchantStore), file, { mode: api.config.mode, actor: TEST_ACTOR, now: new Date() });
  await api.app.get(MerchantsSync).refresh('test');
  return report.changes;
}

/** The operator's commands on the app's database, each loaded at once. */
export function merchantAdmin(api: TestApp): { run: <T>(change: (admin: MerchantAdmin) => Promise<T>) => Promise<T> } {
  const admin = new MerchantAdmin(api.app.get(MerchantStore), api.config.mode, TEST_ACTOR);
  return {
    run: async (change) => {
      const result = await change(admin);
      await api.app.get(MerchantsSync).refresh('test');
      return result;
    },
  };
}

/** Sets a merchant's `payoutApproval` in its settings, as importing an edited merchants file does, and loads it at once. */
export async function setPayoutApproval(api: TestApp, merchantId: string, policy: { required: boolean; thresholdNaira?: number }): Promise<void> {
  await api.app.get(MerchantStore).client.query("UPDATE merchants SET settings = settings || jsonb_build_object('payoutApproval', $2::jsonb) WHERE merchant_id = $1", [merchantId, JSON.stringify(policy)]);
  await api.app.get(MerchantsSync).refresh('test');
}
