import * as fs from 'node:fs';
import * as path from 'node:path';
import { SDK_VERSION } from './version';

it('SDK_VERSION, sent in the User-Agent, is the package version', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../package.json'), 'utf8')) as { version: string };
  expect(SDK_VERSION).toBe(manifest.version);
});
