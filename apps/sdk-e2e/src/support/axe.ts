import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR } from './chromium';

// axe-core's browser bundle, as text, to evaluate in each page.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const AXE_SOURCE = (require('axe-core') as { source: string }).source;
const WCAG_21_A_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/**
 * The page's WCAG 2.1 A and AA violations, each with the elements it names. The page's
 * own CSP forbids script: run it in a context made with `bypassCSP: true`.
 */
export async function violationsOf(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const { axe, document } = globalThis as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: Violation[] }> }; document: unknown };
    return (await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })).violations;
  }, WCAG_21_A_AA);
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}


/** A screenshot to keep of a checked page: docs/images/dashboard-<name>.png, at desktop width (or a phone's, with `phone`). */
export interface Shot {
  name: string;
  phone?: boolean;
  fullPage?: boolean;
}

/** No WCAG 2.1 A or AA violation on the page once it has loaded; its screenshot saved in SCREENSHOT_DIR when `shot` asks for this width. */
export async function expectAccessible(page: Page, { desktop, shot }: { desktop: boolean; shot?: Shot }): Promise<void> {
  // What is still loading is not what a member reads.
  await page.waitForFunction("!document.body.innerText.includes('Loading…')");
  expect(await violationsOf(page)).toEqual([]);
  if (shot && desktop !== Boolean(shot.phone)) {
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `dashboard-${shot.name}.png`), fullPage: Boolean(shot.fullPage) });
  }
}
