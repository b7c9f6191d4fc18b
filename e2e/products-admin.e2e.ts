// The products' back office in real Chromium against a real server with the demo products: an administrator
// signs in (password and authenticator), sees every product with what it sold and what its house account
// holds as the API says, creates a defi product as a draft and is refused opening it while its house account
// cannot hold the yields it would promise (the server's translated message; still a draft) and refused funding
// it from an empty house spot wallet (nothing moved), records a miner's
// amount for tomorrow and sees it in the daily rates, and reads a product's holdings and accruals after a user
// rented and a day was accrued.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { AdminProductsReply } from '@fairex/shared';
import { launchBrowser, newContext } from './support/browser.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';
import { startProductsServer, type ProductsE2E } from './products-seed.ts';

describe("the products' back office", () => {
  let env: ProductsE2E;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'fairex-products-admin-e2e-'));
    env = await startProductsServer(dataDir, { ico: '100', miner: '1000', defi: '100' });
    await env.call('/miner/buy', { id: 3, number: 2 });
    await env.advanceDays(2);
    await env.admin('/backoffice/products/accrue');
    browser = await launchBrowser();
    context = await newContext(browser, { width: 1600, height: 1000 });
    page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await env?.server.stop();
  });

  it('lists, creates, refuses an unfunded opening, records a rate and shows holdings and accruals', async () => {
    await page.goto(`${env.server.baseURL}/admin`);
    await page.waitForURL('**/admin/login');
    await page.getByTestId('admin-login-username').fill(env.adminLogin.username);
    await page.getByTestId('admin-login-password').fill(env.adminLogin.password);
    await page.getByTestId('admin-login-submit').click();
    await page.getByTestId('admin-code-input').fill(await env.adminLogin.code());
    await page.getByTestId('admin-code-submit').click();
    await page.waitForURL('**/admin/dashboard');

    await page.getByTestId('admin-nav-products').click();
    await page.waitForURL('**/admin/products');
    await page.getByTestId('products-status-1').waitFor();
    const before = await env.admin<AdminProductsReply>('/backoffice/products', {}, 'GET');
    expect(before.products.length).toBe(5);
    for (const line of before.products) {
      expect(await page.getByTestId(`products-status-${line.id}`).textContent()).toBe(
        { draft: 'Draft', open: 'Open', closed: 'Closed' }[line.status],
      );
      expect(await page.getByTestId(`products-house-available-${line.id}`).textContent()).toBe(
        /^0(\.0+)?$/.test(line.house_available) ? '0' : line.house_available,
      );
    }
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'products-admin-en-day.png'), fullPage: true });

    // A new defi product: a draft until its house account holds what it would promise.
    await page.getByTestId('products-create-defi').click();
    await page.getByTestId('products-terms').waitFor();
    await page.getByTestId('products-field-title').fill('USDT 10 days');
    await page.getByTestId('products-field-currency').click();
    await page.locator('.ant-select-item-option[title="USDT"]').click();
    await page.getByTestId('products-field-total').fill('100000');
    await page.getByTestId('products-field-days').fill('10');
    await page.getByTestId('products-field-apr').fill('500');
    await page.getByTestId('products-terms-save').click();
    await page.locator('.fx-toast.is-success').first().waitFor();
    const created = await env.admin<AdminProductsReply>('/backoffice/products', {}, 'GET');
    const draft = created.products.find((line) => line.title === 'USDT 10 days');
    if (draft === undefined) throw new Error('the product was not created');
    expect([draft.kind, draft.status, draft.days, draft.apr_bp, draft.total]).toEqual([
      'defi',
      'draft',
      10,
      500,
      '100000',
    ]);
    await page.getByTestId(`products-status-${draft.id}`).waitFor();
    expect(await page.getByTestId(`products-status-${draft.id}`).textContent()).toBe('Draft');

    await page.getByTestId(`products-open-${draft.id}`).click();
    const refusal = page.locator('.fx-toast.is-error').first();
    await refusal.waitFor();
    expect((await refusal.textContent())?.length ?? 0).toBeGreaterThan(10);
    const after = await env.admin<AdminProductsReply>('/backoffice/products', {}, 'GET');
    expect(after.products.find((line) => line.id === draft.id)?.status).toBe('draft');
    expect(await page.getByTestId(`products-status-${draft.id}`).textContent()).toBe('Draft');

    // Funding its house account from the house's spot wallet with more USDT than it holds here (the demo
    // puts 100,000 USDT there for the flash desk): the dialog names the amount, the refusal is the server's,
    // and nothing moved.
    await page.getByTestId(`products-status-${draft.id}`).click();
    await page.getByTestId(`products-detail-${draft.id}`).waitFor();
    await page.getByTestId('products-fund-amount').fill('5000000');
    await page.getByTestId('products-fund').click();
    await page.locator('.ant-modal-confirm').filter({ hasText: 'Move 5000000 USDT' }).waitFor();
    await page.getByTestId('products-fund-confirm').click();
    await page
      .locator('.fx-toast.is-error')
      .filter({ hasText: "The house's change wallet does not hold this amount." })
      .first()
      .waitFor();
    const unfunded = await env.admin<AdminProductsReply>('/backoffice/products', {}, 'GET');
    expect(unfunded.products.find((line) => line.id === draft.id)?.house_available).toBe(
      draft.house_available,
    );

    // The recorded-rate miner: the amount of a day to come, then its days, holdings and accruals. (The
    // server's clock runs two days ahead of the browser's here, so the day is chosen well ahead of both.)
    await page.getByTestId('products-status-3').click();
    await page.getByTestId('products-detail-3').waitFor();
    await page.getByRole('tab', { name: 'Daily rates' }).click();
    const day = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    const picker = page.getByTestId('products-rate-day');
    await picker.click();
    await picker.fill(day);
    await picker.press('Enter');
    await page.getByTestId('products-rate-amount').fill('0.00002100');
    await page.getByTestId('products-rate-save').click();
    await page.locator('.fx-toast.is-success').filter({ hasText: 'Saved' }).first().waitFor();
    await expect.poll(() => page.getByTestId('products-rates').textContent()).toContain('0.00002100');
    await page.getByRole('tab', { name: 'Holdings' }).click();
    await expect
      .poll(() => page.getByTestId('products-holdings').textContent())
      .toContain(String(env.user.id));
    await page.getByRole('tab', { name: 'Accruals' }).click();
    const accruals = await env.admin<{ data: { amount: string }[] }>(
      '/backoffice/products/accruals',
      { id: 3, page: 1 },
      'GET',
    );
    expect(accruals.data.length).toBeGreaterThan(0);
    await expect
      .poll(() => page.getByTestId('products-accruals').textContent())
      .toContain(accruals.data[0]?.amount ?? '?');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'products-admin-detail-en-day.png'), fullPage: true });
    expect(problems).toEqual([]);
  });
});
