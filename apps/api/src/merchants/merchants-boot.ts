import * as os from 'node:os';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import type { ServiceMetrics } from '../metrics/service-metrics';
import { MerchantRegistry } from './merchant-registry';
import type { MerchantStore } from './merchant-store';
import { importMerchantsFile } from './merchants-import';
import { MerchantsSync, postgresListener } from './merchants-sync';

/**
 * The merchants at boot: a merchants file imported first where one is named
 * (MERCHANTS_FILE, deprecated; in sandbox, the sandbox merchants, which seed
 * the demo merchant), once per content of the file, then every merchant
 * loaded from the database into the registry, and the sync that keeps it so.
 */
export async function openMerchants(
  store: MerchantStore,
  config: AppConfig,
  { logger, metrics, clock }: { logger: Logger; metrics: ServiceMetrics; clock: () => number },
): Promise<{ registry: MerchantRegistry; sync: MerchantsSync }> {
  const file = config.merchantsImportFile;
  if (file) {
    const report = await importMerchantsFile(store, file, { mode: config.mode, actor: { actor: `service@${os.hostname()}`, channel: 'boot' }, now: new Date(clock()), onlyOnce: true });
    if (config.merchantsFileDeprecated) {
      logger.warn({ file, imported: !report.skipped, changes: report.changes.length }, 'MERCHANTS_FILE is deprecated: merchants live in the database; it was imported (once per content), and `merchants import` does the same. Unset it once imported');
    }
    if (!report.skipped) logger.info({ file, changes: report.changes, unchanged: report.unchanged }, 'merchants file imported into the database');
  }
  const loaded = await store.loadAll();
  if (loaded.refused.length > 0) {
    metrics.merchantsReloadFailures.inc({ reason: 'invalid' }, loaded.refused.length);
    logger.error({ refused: loaded.refused }, 'merchants left out at boot: their keys are refused until they are mended');
  }
  const registry = new MerchantRegistry(loaded.entries, clock);
  logger.info({ merchants: loaded.entries.length, version: String(loaded.version) }, 'merchants loaded from the database');
  const sync = new MerchantsSync(
    registry,
    store,
    {
      maxLagMs: config.merchantsSyncMaxLagMs,
      lastUsedFlushMs: config.merchantsLastUsedFlushSeconds * 1000,
      logger,
      metrics,
      // On the migration URL, which is direct: behind a pooler in transaction mode, DATABASE_URL would lose the LISTEN.
      ...(config.databaseUrl ? { listen: postgresListener(config.databaseMigrationUrl ?? config.databaseUrl) } : {}),
    },
    loaded.version,
  );
  return { registry, sync };
}
