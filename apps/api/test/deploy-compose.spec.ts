// deploy/compose.yaml, checked for what this machine can check without a
// Docker engine: every variable it sets is one the service reads (the README
// table), no secret is written in it, it boots in production mode once the
// env file's secrets are filled in and not before (SECRETS_KEYRING among
// them), no merchants file is named or mounted, the migrations' role comes
// from the env file beside DATABASE_URL, TLS is on, and the image's build
// context holds the deployable folder only.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from '../src/config/app-config';

const root = path.resolve(__dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

interface Service {
  env_file?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
}

describe('deploy/compose.yaml', () => {
  const text = read('deploy/compose.yaml');
  const compose = parse(text, { merge: true }) as { services: Record<string, Service> };
  const api = compose.services['api-1'] as Service;
  const readme = new Set([...read('README.md').matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1] as string));
  /** The env file's values as the example writes them, by name. */
  const exampleValues = Object.fromEntries([...read('deploy/paysign.env.example').matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1] as string, m[2] as string]));
  const example = Object.keys(exampleValues);
  /** Read by the proxy and PostgreSQL, not the service: each is explained where the file is. */
  const notTheService = ['POSTGRES_PASSWORD', 'PAYSIGN_SITE_ADDRESS', 'PAYSIGN_TLS'];
  /**
   * Test values for the secrets the example leaves blank, of the forms
   * production accepts: made by openssl rand -base64 32.
   */
  const FILLED_IN: Record<string, string> = {
    CHECKOUT_TOKEN_SECRET: 'y6xF6bMOIjPQJI5/SYnXmUz4RRI63RUFBfdlC9lg1MI=',
    SECRETS_KEYRING: 'k1:LLYBFPQ4mNU4JbnjJbPE7TbHCTaGDhFv+hpELpyrKU8=',
    POSTGRES_PASSWORD: 'rgmE2P07XhAmcuVokDw42NmAd5t9w06aV3T7oWvPc4A=',
  };
  /** What an instance boots with: the env file filled in, then the service's environment over it, as compose gives it. */
  const instanceEnvironment = () => {
    const file = { ...exampleValues, ...FILLED_IN };
    file.DATABASE_URL = (file.DATABASE_URL as string).replace('<POSTGRES_PASSWORD>', encodeURIComponent(FILLED_IN.POSTGRES_PASSWORD as string));
    return { ...file, ...api.environment } as Record<string, string>;
  };

  it('sets only variables the service reads, as the README table lists them', () => {
    const set = [...Object.keys(api.environment ?? {}), ...example.filter((name) => !notTheService.includes(name))];
    expect(set.filter((name) => !readme.has(name))).toEqual([]);
    for (const name of notTheService) expect(read('deploy/paysign.env.example') + read('deploy/Caddyfile')).toContain(name);
  });

  it('writes no secret: passwords and keys come from the git-ignored env file', () => {
    expect(text).not.toMatch(/PASSWORD\s*:\s*\S/);
    expect(text).not.toMatch(/postgres:\/\/[^:@\s/]+:[^@\s]+@/);
    expect(text).not.toMatch(/CHECKOUT_TOKEN_SECRET\s*:/);
    expect(text).not.toMatch(/SECRETS_KEYRING\s*:/);
    // The example leaves every secret blank, for the operator to generate.
    const secrets = example.filter((name) => /SECRET|PASSWORD|TOKEN|KEYRING/.test(name));
    expect(secrets.sort()).toEqual(['CHECKOUT_TOKEN_SECRET', 'POSTGRES_PASSWORD', 'SECRETS_KEYRING']);
    expect(secrets.filter((name) => exampleValues[name] !== '')).toEqual([]);
    for (const name of ['api-1', 'api-2', 'postgres']) expect(compose.services[name]?.env_file).toEqual(['paysign.env']);
    expect(read('.gitignore').split('\n')).toContain('deploy/paysign.env');
  });

  it('boots in production mode once the env file is filled in, and needs SECRETS_KEYRING from it', () => {
    expect(loadConfig(instanceEnvironment())).toMatchObject({ mode: 'production', merchantsImportFile: undefined });
    const withoutKeyring = instanceEnvironment();
    delete withoutKeyring.SECRETS_KEYRING;
    expect(() => loadConfig(withoutKeyring)).toThrow('SECRETS_KEYRING is required');
  });

  it("takes the migrations' role, DATABASE_MIGRATION_URL, from the env file beside DATABASE_URL, blank until the operator splits the roles", () => {
    expect(example.slice(example.indexOf('DATABASE_URL'), example.indexOf('DATABASE_URL') + 2)).toEqual(['DATABASE_URL', 'DATABASE_MIGRATION_URL']);
    // Blank, the migrations run as DATABASE_URL; it carries a password once set, so the example writes none.
    expect(exampleValues.DATABASE_MIGRATION_URL).toBe('');
    expect(text).not.toMatch(/DATABASE_MIGRATION_URL\s*:/);
    for (const name of ['api-1', 'api-2']) expect(compose.services[name]?.env_file).toEqual(['paysign.env']);
    const split = instanceEnvironment();
    split.DATABASE_MIGRATION_URL = split.DATABASE_URL as string;
    split.DATABASE_URL = (split.DATABASE_URL as string).replace('paysign:', 'paysign_app:');
    expect(loadConfig(split)).toMatchObject({ mode: 'production', databaseUrl: split.DATABASE_URL });
  });

  it('names and mounts no merchants file: merchants live in PostgreSQL', () => {
    for (const name of ['api-1', 'api-2']) {
      const service = compose.services[name] as Service;
      expect(Object.keys(service.environment ?? {}).filter((variable) => variable.startsWith('MERCHANTS_FILE') || variable === 'MERCHANTS_WATCH_INTERVAL_MS')).toEqual([]);
      expect(service.volumes).toBeUndefined();
    }
    expect(example.filter((name) => name.startsWith('MERCHANTS_'))).toEqual([]);
  });

  it('terminates TLS at the proxy, and builds the image from the deployable folder alone', () => {
    expect(compose.services.proxy?.ports).toContain('443:443');
    expect(read('deploy/Caddyfile')).toMatch(/^\ttls \{\$PAYSIGN_TLS:internal\}$/m);
    expect(read('deploy/.dockerignore').split('\n').filter((line) => line !== '' && !line.startsWith('#'))).toEqual(['*', '!Dockerfile', '!service/']);
  });
});
