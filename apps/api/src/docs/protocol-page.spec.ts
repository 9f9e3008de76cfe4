import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderProtocolPage } from './protocol-page';

const page = renderProtocolPage(fs.readFileSync(path.resolve(__dirname, '../../../../docs/protocol.md'), 'utf8'));

describe('the protocol page', () => {
  it('links only where a merchant can follow: the service itself, or the web', () => {
    const hrefs = [...page.matchAll(/href="([^"]*)"/g)].map(([, href]) => href as string);
    expect(hrefs).toContain('/payment/docs/vectors.json');
    expect(hrefs.filter((href) => !/^(\/payment\/|https?:\/\/)/.test(href))).toEqual([]);
  });

  it('keeps the text of a repository link it cannot serve', () => {
    expect(page).toContain('<code>examples/python</code>');
    expect(page).not.toContain('href="../');
  });

  it('runs no script and loads nothing', () => {
    expect(page).not.toMatch(/<script|<link|<img|<iframe/i);
  });
});
