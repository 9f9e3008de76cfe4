import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium, driven by playwright-core; a downloaded browser is never used. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where browser tests save screenshots; docs/images/ holds the ones the docs show. */
export const SCREENSHOT_DIR = path.resolve(process.env.PAYSIGN_SCREENSHOT_DIR ?? path.join(__dirname, '../../../../dist/screenshots'));

/** `describe` for a browser suite: skipped loudly without chromium on a developer's machine, failed under CI=true. */
export function describeWithChromium(name: string, suite: () => void): void {
  if (fs.existsSync(CHROMIUM)) describe(name, suite);
  else if (process.env.CI === 'true') {
    describe(name, () => {
      it('needs chromium', () => {
        throw new Error(`${CHROMIUM} is missing; under CI=true a browser test fails instead of skipping. Install Debian's chromium (apt-get install -y chromium).`);
      });
    });
  } else {
    console.warn(`SKIPPED "${name}": ${CHROMIUM} is missing. Install Debian's chromium (apt-get install -y chromium).`);
    describe.skip(name, suite);
  }
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
}
