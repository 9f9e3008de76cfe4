// deploy/compose.yaml, checked for what this machine can check without a
// Docker engine: every variable it sets is one the service reads (the README
// table), no secret is written in it, the merchants file is mounted as a
// directory the watcher can follow, TLS is on, and the image's build context
// holds the deployable folder only.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';

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
  const example = [...read('deploy/paysign.env.example').matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1] as string);
  /** Read by the proxy and PostgreSQL, not the service: each is explained where the file is. */
  const notTheService = ['POSTGRES_PASSWORD', 'PAYSIGN_SITE_ADDRESS', 'PAYSIGN_TLS'];

  it('sets only variables the service reads, as the README table lists them', () => {
    const set = [...Object.keys(api.environment ?? {}), ...example.filter((name) => !notTheService.includes(name))];
    expect(set.filter((name) => !readme.has(name))).toEqual([]);
    for (const name of notTheService) expect(read('deploy/paysign.env.example') + read('deploy/Caddyfile')).toContain(name);
  });

  it('writes no secret: passwords and keys come from the git-ignored env file', () => {
    expect(text).not.toMatch(/PASSWORD\s*:\s*\S/);
    expect(text).not.toMatch(/postgres:\/\/[^:@\s/]+:[^@\s]+@/);
    expect(text).not.toMatch(/CHECKOUT_TOKEN_SECRET\s*:/);
    for (const name of ['api-1', 'api-2', 'postgres']) expect(compose.services[name]?.env_file).toEqual(['paysign.env']);
    expect(read('.gitignore').split('\n')).toContain('deploy/paysign.env');
  });

  it('mounts the merchants file as its directory, so that a file replaced by rename is seen', () => {
    const mount = (api.volumes ?? []).find((volume) => volume.includes(':/etc/paysign'));
    // "${HOST:?message}:/target:ro": the target follows the interpolation's closing brace.
    const target = mount?.slice(mount.indexOf('}:') + 2).split(':')[0] as string;
    expect(target).toBe('/etc/paysign/merchants');
    expect(api.environment?.MERCHANTS_FILE).toBe(`${target}/merchants.json`);
  });

  it('terminates TLS at the proxy, and builds the image from the deployable folder alone', () => {
    expect(compose.services.proxy?.ports).toContain('443:443');
    expect(read('deploy/Caddyfile')).toMatch(/^\ttls \{\$PAYSIGN_TLS:internal\}$/m);
    expect(read('deploy/.dockerignore').split('\n').filter((line) => line !== '' && !line.startsWith('#'))).toEqual(['*', '!Dockerfile', '!service/']);
  });
});
