// Leverage's back office in real Chromium against a real server of its own: an administrator signs in
// (password, then an authenticator enrolled on the spot), opens the leverage screen, changes BTC/USDT's
// liquidation threshold (the public /lever/deal then answers the new rule), funds the insurance fund and
// sees the balance and the movement; screenshots in day and night.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminScenario } from './admin-seed.ts';
import {
  signInEnrollingAuthenticator,
  startAdminConsole,
  type AdminConsole,
} from './support/admin-console.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';

describe("leverage's back office", () => {
  let adminConsole: AdminConsole;
  let scenario: AdminScenario;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    adminConsole = await startAdminConsole('admin-lever');
    ({ scenario, page, problems } = adminConsole);
  });

  afterAll(async () => {
    await adminConsole?.close();
  });

  it('changes a threshold for new positions and funds the insurance fund', async () => {
    await signInEnrollingAuthenticator(page, scenario.server.baseURL);

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
