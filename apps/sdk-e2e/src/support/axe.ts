import type { Page } from 'playwright-core';

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

