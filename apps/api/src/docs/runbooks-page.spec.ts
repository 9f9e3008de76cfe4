import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { renderRunbooksPage } from './runbooks-page';

const root = path.resolve(__dirname, '../../../..');
const page = renderRunbooksPage(fs.readFileSync(path.join(root, 'docs/runbooks.md'), 'utf8'));
const alerts = (parse(fs.readFileSync(path.join(root, 'deploy/monitoring/alerts.yaml'), 'utf8')) as { groups: Array<{ rules: Array<{ alert: string }> }> }).groups.flatMap((group) => group.rules.map((rule) => rule.alert));

/** Each section of the page: an h2 and what follows it, up to the next. */
const sections = page
  .split(/(?=<h2 id=")/)
  .slice(1)
  .map((html) => ({ id: /^<h2 id="([^"]+)"/.exec(html)?.[1] as string, html }));
const ids = [...page.matchAll(/ id="([^"]+)"/g)].map(([, id]) => id as string);
const hrefs = [...page.matchAll(/href="([^"]*)"/g)].map(([, href]) => href as string);

/** What every section answers, as bold lead-ins, in this order. */
const PARTS = ['What it means', 'How to confirm', 'What to do', 'How to roll back', 'Who to tell'];

describe('the runbooks page', () => {
  it.each(alerts)('has a section for %s, with the anchor its runbook_url names', (alert) => {
    expect(page).toContain(`<h2 id="${alert.toLowerCase()}">${alert}</h2>`);
  });

  it('has the sections of alerts and situations, each heading its own anchor', () => {
    expect(sections.length).toBeGreaterThan(alerts.length);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(sections.map((section) => [section.id, section] as const))('answers the five questions in section %s, in order', (_id, { html }) => {
    const at = PARTS.map((part) => html.indexOf(`<strong>${part}.</strong>`));
    expect(PARTS.filter((_part, i) => (at[i] as number) < 0)).toEqual([]);
    expect(at).toEqual([...at].sort((a, b) => a - b));
  });

  it('lands every link to a section on one', () => {
    expect(hrefs.filter((href) => href.startsWith('#') && !ids.includes(href.slice(1)))).toEqual([]);
  });

  it('links only where a reader can follow: the page itself, the service, or the web', () => {
    expect(hrefs).toContain('/payment/docs/runbooks');
    expect(hrefs.filter((href) => !/^(#|\/payment\/|https?:\/\/)/.test(href))).toEqual([]);
    expect(page).not.toContain('href="../');
  });

  it('runs no script and loads nothing', () => {
    expect(page).not.toMatch(/<script|<link|<img|<iframe/i);
  });
});
