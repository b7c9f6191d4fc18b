// Leverage's back office in real Chromium against a real server of its own: an administrator signs in
// (password, then an authenticator enrolled on the spot), opens the leverage screen, changes BTC/USDT's
// liquidation threshold (the public /lever/deal then answers the new rule), funds the insurance fund and
// sees the balance and the movement; screenshots in day and night.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, startAdminScenario, type AdminScenario } from './admin-seed.ts';
import { launchBrowser, newContext } from './support/browser.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';

describe("leverage's back office", () => {
  let scenario: AdminScenario;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'fairex-admin-lever-e2e-'));
    scenario = await startAdminScenario(dataDir);
    browser = await launchBrowser();
    context = await newContext(browser, { width: 1440, height: 900 });
    page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  });

  afterAll(async () => {
    await browser?.close();
    await scenario?.server.stop();
  });

  it('changes a threshold for new positions and funds the insurance fund', async () => {
    await page.goto(`${scenario.server.baseURL}/admin`);
    await page.waitForURL('**/admin/login');
    await page.getByTestId('admin-login-username').fill(ADMIN_USERNAME);
    await page.getByTestId('admin-login-password').fill(ADMIN_PASSWORD);
    await page.getByTestId('admin-login-submit').click();
    const secretText = page.getByTestId('admin-enrol-secret');
    await secretText.waitFor();
    const secret = ((await secretText.textContent()) ?? '').trim();
    const code = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
    await page.getByTestId('admin-code-input').fill(code.generate());
    await page.getByTestId('admin-code-submit').click();
    await page.waitForURL('**/admin/dashboard');

    await page.getByTestId('admin-nav-lever').click();
    await page.waitForURL('**/admin/lever');
    await page.getByTestId('lever-edit-1').click();
    const threshold = page.getByTestId('lever-field-liquidation_threshold');
    await threshold.waitFor();
    expect(await threshold.inputValue()).toBe('10');
    await threshold.fill('20');
    await page.getByTestId('lever-pair-save').click();
    await page.locator('.fx-toast.is-success').first().waitFor();
    // The list is read again: the pair shows its new threshold.
    await page.getByTestId('lever-admin-pairs').getByText('20 %').first().waitFor();
    const deal = (await fetch(`${scenario.server.baseURL}/api/lever/deal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ legal_id: 3, currency_id: 1 }),
    }).then((response) => response.json())) as { message: { rules: { liquidation_threshold: string } } };
    expect(deal.message.rules.liquidation_threshold).toBe('20');

    const balance = page.getByTestId('lever-insurance-balance').first();
    await balance.waitFor();
    const before = Number(((await balance.textContent()) ?? '0').replace(/[^\d.]/g, ''));
    const insurance = page.getByTestId('lever-admin-insurance');
    await page.getByTestId('lever-fund-amount').fill('500');
    await page.getByTestId('lever-fund').click();
    await page.locator('.ant-modal-confirm').getByText('500 USDT').first().waitFor();
    await page.getByTestId('lever-fund-confirm').click();
    await page.locator('.fx-toast').nth(1).waitFor();
    await expect
      .poll(async () => Number(((await balance.textContent()) ?? '0').replace(/[^\d.]/g, '')))
      .toBe(before + 500);
    await insurance.getByText('500.000000').first().waitFor();
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-lever-en-day.png'), fullPage: true });
    expect(problems).toEqual([]);
  }, 120_000);
});
