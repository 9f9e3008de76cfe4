import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import pino from 'pino';
import { ServiceMetrics } from '../metrics/service-metrics';
import { MerchantRegistry } from './merchant-registry';
import { MerchantsFileWatcher } from './merchants-file-watcher';

const valid = { merchantId: 'MCH-1', tenantId: 'TEN-1', name: 'Shop', credentials: [{ apiKey: 'pk_1', secretKey: 'sk_1_long_enough_secret' }] };
const REFUSED = 'merchants file refused: the merchants already in force stay in force';

describe('the merchants file watcher', () => {
  let dir: string;
  let file: string;
  let logged: Array<Record<string, unknown>>;
  let metrics: ServiceMetrics;
  let watcher: MerchantsFileWatcher;
  let registry: MerchantRegistry;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'merchants-watcher-'));
    file = path.join(dir, 'merchants.json');
    fs.writeFileSync(file, JSON.stringify([valid]));
    registry = MerchantRegistry.fromFile(file);
    logged = [];
    metrics = new ServiceMetrics();
    const logger = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line) as Record<string, unknown>) });
    // A long interval: each check is made by start(), which checks at once.
    watcher = new MerchantsFileWatcher(registry, { file, mode: 'sandbox', intervalMs: 3_600_000, logger, metrics });
  });
  afterEach(() => {
    watcher.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const check = () => {
    watcher.stop();
    watcher.start();
  };
  const failures = async () => Object.fromEntries((await metrics.merchantsReloadFailures.get()).values.map((v) => [v.labels.reason, v.value]));

  it('counts a refused reload by reason: invalid when the file is read and refused, unreadable when it cannot be read', async () => {
    fs.writeFileSync(file, '{ not JSON');
    expect(watcher.reload('SIGHUP')).toBe(false);
    expect(await failures()).toEqual({ invalid: 1 });
    fs.rmSync(file);
    expect(watcher.reload('SIGHUP')).toBe(false);
    expect(await failures()).toEqual({ invalid: 1, unreadable: 1 });
    expect(logged.filter((line) => line.msg === REFUSED).map((line) => line.failure)).toEqual(['invalid', 'unreadable']);
    expect(registry.secretFor('pk_1')).toBe('sk_1_long_enough_secret');
  });

  it('reads a refused file again at each check, counting each refusal and logging it once, until one is in force', async () => {
    check();
    fs.writeFileSync(file, JSON.stringify([{ ...valid, credentials: [{ ...valid.credentials[0], status: 'REVOKED' }] }]));
    // A whole second, which the file system keeps exactly, so that the mended file below can be given the same.
    fs.utimesSync(file, 1_000_000, 1_000_000);
    check();
    check();
    check();
    expect(await failures()).toEqual({ invalid: 3 });
    expect(logged.filter((line) => line.msg === REFUSED)).toHaveLength(1);
    // Mended without a change the version sees (same inode, size and modification time, as after a chgrp): the next check applies it.
    fs.writeFileSync(file, JSON.stringify([{ ...valid, credentials: [{ ...valid.credentials[0], status: 'revoked' }] }]));
    fs.utimesSync(file, 1_000_000, 1_000_000);
    check();
    expect(registry.secretFor('pk_1')).toBeUndefined();
    expect(logged.at(-1)).toMatchObject({ msg: 'merchants file reloaded', reason: 'file still refused', keysRevoked: ['pk_1'] });
    check();
    expect(await failures()).toEqual({ invalid: 3 });
  });
});
