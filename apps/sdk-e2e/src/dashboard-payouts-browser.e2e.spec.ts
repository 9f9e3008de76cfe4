// Payouts, batches and rejections in the merchant dashboard, in Debian's
// chromium on the real service: a payout made after an enquiry shows the
// holder's name before it is confirmed; a CSV file with a bad row is refused
// by its dry run before anything is created; a batch a teammate made is
// approved with a passkey (chromium's virtual authenticator); a payout is
// rejected with a reason its page then shows. Every page is checked by
// axe-core at a phone's width and a desktop's; at desktop width each is saved
// as docs/images/dashboard-<page>.png when PAYSIGN_SCREENSHOT_DIR names docs/images.
import { randomUUID } from 'node:crypto';
import { setPayoutApproval, type DashboardClient } from '@paysign/api/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expectAccessible, type Shot } from './support/axe';
import { describeWithChromium, launchChromium } from './support/chromium';
import { DashboardService, type OnboardedMerchant } from './support/dashboard-service';
import { acceptLink, addVirtualAuthenticator, continueToDashboard, enrolAuthenticatorApp, joinByLink, reached } from './support/dashboard-steps';

const WIDTHS: Array<[string, { width: number; height: number }]> = [
  ['a phone', { width: 375, height: 812 }],
  ['a desktop', { width: 1280, height: 800 }],
];
const ACCOUNT = { bankCode: '058', accountNumber: '0123456785', accountName: 'ADAEZE NWOSU' };
const HEADER = 'reference,bankCode,accountNumber,amount,narration,expectedAccountName';
const csvRow = (reference: string, amount: string, expectedName = 'Adaeze Nwosu') => `${reference},${ACCOUNT.bankCode},${ACCOUNT.accountNumber},${amount},Salary,${expectedName}`;
const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

describeWithChromium('dashboard payouts, batches and rejections in a real browser', () => {
  let service: DashboardService;
  let browser: Browser;

  beforeAll(async () => {
    [service, browser] = await Promise.all([DashboardService.start(), launchChromium()]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  describe.each(WIDTHS)('at the width of %s', (_width, viewport) => {
    const desktop = viewport.width >= 1280;
    let merchant: OnboardedMerchant;
    let context: BrowserContext;
    let page: Page;
    // A teammate who makes payouts through the dashboard API: what the owner approves or rejects is theirs, not the owner's (four eyes).
    let teammate: DashboardClient;
    const check = (shot?: Shot): Promise<void> => expectAccessible(page, { desktop, ...(shot ? { shot } : {}) });
    const open = async (route: string, title: string | RegExp) => {
      await page.goto(service.url(route));
      await reached(page, title);
    };

    beforeAll(async () => {
      merchant = await service.addMerchant(desktop ? 'PAYWIDE' : 'PAYPHONE');
      await setPayoutApproval(service.api, merchant.merchantId, { required: true, thresholdNaira: 1 });
      await service.collect(merchant, 500_000);
      teammate = await joinByLink(service, await service.setupLink(merchant.merchantId, `teammate-${randomUUID().slice(0, 6)}@example.com`));
      // The dashboard's CSP forbids injected script; the test's own axe is let through, for the check only.
      context = await browser.newContext({ viewport, bypassCSP: true });
      context.setDefaultTimeout(10_000);
      page = await context.newPage();
      await addVirtualAuthenticator(context, page);
      await acceptLink(page, merchant.setupUrl);
      await enrolAuthenticatorApp(page, service);
      await continueToDashboard(page);
      await open('security', 'Security');
      await page.getByLabel('Passkey name').fill('Test phone');
      await page.getByRole('button', { name: 'Add a passkey' }).click();
      await page.getByRole('status').filter({ hasText: 'is registered.' }).waitFor();
    }, 30_000);
    afterAll(() => context?.close());

    it('makes a payout after an enquiry, the holder named before it is confirmed', async () => {
      const reference = unique('web');
      await open('payouts/new', 'New payout');
      await page.getByLabel('Bank').selectOption(ACCOUNT.bankCode);
      await page.getByLabel('Account number').fill(ACCOUNT.accountNumber);
      await page.getByRole('button', { name: 'Find the account holder' }).click();
      await page.getByRole('status').filter({ hasText: `held by ${ACCOUNT.accountName}` }).waitFor();
      await page.getByLabel('Reference').fill(reference);
      await page.getByLabel('Amount (NGN)').fill('2,500.50');
      await page.getByLabel('Narration').fill('Invoice 12');
      await check({ name: 'payout-new' });
      await page.getByRole('button', { name: 'Review payout' }).click();
      const confirm = page.getByRole('dialog', { name: 'Pay out?' });
      expect(await confirm.innerText()).toContain(`Pay ₦2,500.50 to ${ACCOUNT.accountName} (${ACCOUNT.bankCode}/${ACCOUNT.accountNumber})`);
      await check();
      await confirm.getByRole('button', { name: 'Pay out' }).click();
      await reached(page, `Payout ${reference}`);
      await page.getByRole('region', { name: 'What happened, oldest first' }).waitFor();
      expect(await page.getByRole('region', { name: 'Summary' }).innerText()).toMatch(/pending approval[\s\S]*₦2,500\.50/);
      await check({ name: 'payout', fullPage: true });
      await open('payouts', 'Payouts');
      await page.getByRole('link', { name: reference }).waitFor();
      await check({ name: 'payouts' });
    });

    it('refuses a CSV file with a bad row in its dry run, before anything is created', async () => {
      await open('payout-batches/new', 'Upload a payout batch');
      const [good, bad] = [unique('row'), unique('row')];
      const csv = [HEADER, csvRow(good, '1500'), csvRow(bad, '200', 'John Doe')].join('\n');
      await page.getByLabel('CSV file').setInputFiles({ name: 'payroll.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await page.getByRole('status').filter({ hasText: '1 row has a problem: nothing can be created.' }).waitFor();
      const rows = page.getByRole('region', { name: 'Rows of the file, as the dry run found them' });
      expect(await rows.getByRole('row', { name: new RegExp(bad) }).innerText()).toContain('Problem: name mismatch: expected "John Doe", the bank says "ADAEZE NWOSU"');
      expect(await rows.getByRole('row', { name: new RegExp(good) }).innerText()).toMatch(/ADAEZE NWOSU[\s\S]*OK/);
      expect(await page.getByRole('button', { name: 'Make the batch' }).count()).toBe(0);
      await check({ name: 'payout-batch-new', fullPage: true });
      // Nothing was created: neither a batch nor either row's payout.
      expect((await teammate.call('GET', '/payout-batches')).json.data).toEqual([]);
      expect((await teammate.call('GET', `/payouts?q=${good}`)).json.data).toEqual([]);
    });

    it("approves a teammate's batch with a passkey, and shows it submitted", async () => {
      const batch = unique('payroll');
      const made = await teammate.call('POST', '/payout-batches', { reference: batch, title: 'November payroll', csv: [HEADER, csvRow(unique('item'), '1500'), csvRow(unique('item'), '250.50')].join('\n') });
      expect(made.status).toBe(201);
      await open('approvals', 'Approvals');
      await check({ name: 'approvals-batch' });
      await page.getByRole('button', { name: `Approve batch ${batch}` }).click();
      const dialog = page.getByRole('dialog', { name: `Approve batch ${batch}` });
      expect(await dialog.locator('dl').innerText()).toMatch(/Amount\s+₦1,750\.50[\s\S]*Count\s+2/);
      await dialog.getByRole('button', { name: 'Approve with passkey' }).click();
      await dialog.getByRole('status').filter({ hasText: `Approved: batch ${batch} is SUBMITTED.` }).waitFor();
      await dialog.getByRole('button', { name: 'Close' }).click();
      await open(`payout-batches/${batch}`, `Payout batch ${batch}`);
      await page.getByRole('region', { name: 'Payouts of the batch, oldest first' }).waitFor();
      expect(await page.getByRole('region', { name: 'November payroll' }).innerText()).toMatch(/submitted[\s\S]*₦1,750\.50/);
      await check({ name: 'payout-batch', fullPage: true });
      await open('payout-batches', 'Payout batches');
      await page.getByRole('link', { name: batch }).waitFor();
      await check({ name: 'payout-batches' });
    });

    it("rejects a teammate's payout with a reason, which the payout's page shows", async () => {
      const enquiry = await teammate.call('POST', '/account-enquiries', { bankCode: ACCOUNT.bankCode, accountNumber: ACCOUNT.accountNumber });
      const reference = unique('reject');
      expect((await teammate.call('POST', '/payouts', { reference, amount: 130_000, currency: 'NGN', enquiryId: String(enquiry.json.enquiryId), narration: 'Bonus' })).status).toBe(201);
      await open('approvals', 'Approvals');
      await page.getByRole('button', { name: `Reject payout ${reference}` }).click();
      const dialog = page.getByRole('dialog', { name: `Reject payout ${reference}` });
      await dialog.getByLabel('Reason').fill('Not on the November list');
      await check();
      await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
      await dialog.getByRole('status').filter({ hasText: `Rejected: payout ${reference} is CANCELLED.` }).waitFor();
      await dialog.getByRole('button', { name: 'Close' }).click();
      await open(`payouts/${reference}`, `Payout ${reference}`);
      expect(await page.getByRole('region', { name: 'Approval' }).innerText()).toMatch(/rejected[\s\S]*Not on the November list/);
      await check();
    });
  });
});
