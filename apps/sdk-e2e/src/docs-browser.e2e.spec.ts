// The served docs in a real browser (Debian's chromium): the API reference,
// rendered by Redoc from the service's own origin, shows every operation,
// webhook and error code of the contract, the protocol page renders, and the
// runbooks open at an alert's section; no request leaves the origin and no
// Content-Security-Policy is broken.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startTestApp, type TestApp } from '@paysign/api/testing';
import type { Browser, BrowserContext } from 'playwright-core';
import { parse } from 'yaml';
import { SCREENSHOT_DIR, describeWithChromium, launchChromium } from './support/chromium';

interface Contract {
  paths: Record<string, Record<string, { summary?: string }>>;
  webhooks: Record<string, { post: { summary: string } }>;
  components: { schemas: { ErrorCode: { enum: string[]; 'x-enumDescriptions': Record<string, string> } } };
}
const contract = parse(fs.readFileSync(path.resolve(__dirname, '../../../openapi/payment-api.yaml'), 'utf8')) as Contract;
const summaries = Object.values(contract.paths).flatMap((item) => Object.entries(item).filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method)).map(([, op]) => op.summary as string));

describeWithChromium('the served docs in a real browser', () => {
  let api: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  const requested: string[] = [];
  const consoleMessages: string[] = [];

  beforeAll(async () => {
    api = await startTestApp();
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.on('request', (request) => requested.push(request.url()));
    context.on('console', (message) => consoleMessages.push(message.text()));
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  describe('the API reference at /payment/docs', () => {
    let text: string;
    beforeAll(async () => {
      const page = await context.newPage();
      await page.goto(`${api.baseUrl}/payment/docs`);
      // Redoc lays the whole contract out in the page's one thread: on a busy machine that alone can take a minute.
      await page.getByRole('heading', { name: 'List banks' }).first().waitFor({ timeout: 180_000 });
      text = await page.locator('body').innerText();
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'api-reference.png') });
      await page.close();
    }, 240_000);

    it.each(summaries)('shows the operation "%s"', (summary) => {
      expect(text).toContain(summary);
    });

    it.each(Object.keys(contract.webhooks))('shows the webhook %s', (event) => {
      expect(text).toContain(event);
      expect(text).toContain(contract.webhooks[event]?.post.summary);
    });

    it.each(contract.components.schemas.ErrorCode.enum)('shows the error code %s with its meaning', (code) => {
      expect(text).toContain(code);
      // Markdown in the meaning is rendered: compare its words, without the backticks.
      expect(text.replace(/\s+/g, ' ')).toContain(contract.components.schemas.ErrorCode['x-enumDescriptions'][code]?.replace(/`/g, ''));
    });

    it('shows a paysign curl example, and the curl it prints, for every signed operation', () => {
      const signedOperations = Object.entries(contract.paths)
        .filter(([template]) => template.startsWith('/payment/api') || template.startsWith('/payment/merchant-api'))
        .flatMap(([, item]) => Object.keys(item).filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method)));
      expect(text.match(/npm run -s paysign -- curl/g)?.length).toBe(signedOperations.length);
      expect(text.match(/curl -sS -X/g)?.length).toBe(signedOperations.length);
    });

    it('shows the signing headers as the security scheme', () => {
      for (const header of ['X-API-KEY', 'X-Nonce', 'X-Timestamp', 'X-Signature', 'X-Merchant-ID', 'X-Tenant-ID']) expect(text).toContain(header);
    });
  });

  it('renders the protocol page, with its endpoint table and troubleshooting', async () => {
    const page = await context.newPage();
    await page.goto(`${api.baseUrl}/payment/docs/protocol`);
    expect(await page.getByRole('heading', { name: '8. Endpoints' }).count()).toBe(1);
    expect(await page.locator('table').count()).toBeGreaterThanOrEqual(5);
    expect(await page.locator('body').innerText()).toContain('AUTH_SIGNATURE_MISMATCH');
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'protocol.png') });
    await page.close();
  });

  it("opens the runbooks at an alert's section, as its runbook_url names it", async () => {
    const page = await context.newPage();
    await page.goto(`${api.baseUrl}/payment/docs/runbooks#paysignstoredown`);
    const heading = page.getByRole('heading', { name: 'PaysignStoreDown', exact: true });
    expect(await heading.count()).toBe(1);
    // The browser scrolled to it: the heading is at the top of the window, not where the page starts.
    const top = await heading.evaluate((element) => element.getBoundingClientRect().top);
    expect(Math.abs(top)).toBeLessThan(5);
    expect(await page.evaluate('window.scrollY')).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'runbooks.png') });
    await page.close();
  });

  it('made no request outside the service, and broke no Content-Security-Policy', () => {
    expect(requested.length).toBeGreaterThan(3);
    expect([...new Set(requested.map((url) => new URL(url).origin))].filter((origin) => origin !== 'null')).toEqual([api.baseUrl]);
    expect(consoleMessages.filter((message) => /Content Security Policy|Refused to/i.test(message))).toEqual([]);
  });
});
