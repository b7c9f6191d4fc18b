// A user freeze end to end, in real Chromium against a real server of its own: an administrator freezes a
// user's trading from the user's page of the back office (a journaled engine command); the user, on the
// spot trading page, places an order and reads the refusal on screen; the administrator lifts the freeze and
// the same order goes through. Screenshots of both screens go to artifacts/screenshots.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@fairex/shared';
import type { AdminScenario } from './admin-seed.ts';
import {
  signInEnrollingAuthenticator,
  startAdminConsole,
  type AdminConsole,
} from './support/admin-console.ts';
import { newContext } from './support/browser.ts';
import { FairexPage } from './support/fairex-page.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';

describe('a user freeze', () => {
  let adminConsole: AdminConsole;
  let scenario: AdminScenario;
  let page: Page;
  let problems: string[];
  let userPage: Page;

  beforeAll(async () => {
    adminConsole = await startAdminConsole('admin-freeze');
    ({ scenario, page, problems } = adminConsole);
    const { buyer } = scenario;
    const context = await newContext(adminConsole.browser, { width: 1440, height: 900 });
    // The session as the login dialog leaves it, set before any script runs.
    await context.addInitScript(
      ({ token, account, id }) => {
        localStorage.setItem('token', token);
        localStorage.setItem('accountNum', account);
        localStorage.setItem('user_id', String(id));
        localStorage.setItem('lang', 'en');
      },
      { token: buyer.token, account: buyer.account, id: buyer.id },
    );
    userPage = (await FairexPage.open(context, scenario.server.baseURL, '/dealCenter')).page;
    userPage.on('pageerror', (error) => problems.push(`user page error: ${error.message}`));
    await userPage.getByTestId('order-form').waitFor();
  });

  afterAll(async () => {
    await adminConsole?.close();
  });

  async function setTrading(frozen: boolean, reason: string): Promise<void> {
    await page.getByTestId('user-freeze').click();
    const trading = page.getByTestId('freeze-trading');
    await trading.waitFor();
    if ((await trading.getAttribute('aria-checked')) !== String(frozen)) await trading.click();
    await page.getByTestId('freeze-reason').fill(reason);
    await page.locator('.ant-modal-footer .ant-btn-primary').click();
    await page.locator('.ant-modal').waitFor({ state: 'hidden' });
  }

  async function placeBuy(): Promise<void> {
    await userPage.getByTestId('buy-price').fill('20000');
    await userPage.getByTestId('buy-amount').fill('0.01');
    await userPage.getByTestId('buy-submit').click();
  }

  const openOrders = async () => {
    const reply = (await fetch(`${scenario.server.baseURL}/api/orders/open?lang=en`, {
      headers: { authorization: scenario.buyer.token },
    }).then((response) => response.json())) as { message: { data: unknown[] } };
    return reply.message.data.length;
  };

  it('refuses the frozen user on screen, and lets the order through once lifted', async () => {
    await signInEnrollingAuthenticator(page, scenario.server.baseURL);
    await page.goto(`${scenario.server.baseURL}/admin/users/${scenario.buyer.id}`);
    await page.getByTestId('user-freeze').waitFor();

    await setTrading(true, 'Disputed card payment');
    const alert = page.getByTestId('user-freeze-alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Disputed card payment');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'admin-freeze-en-day.png'), fullPage: true });

    await placeBuy();
    const refusal = translate('en', 'freeze.trading');
    await userPage.getByText(refusal).first().waitFor();
    await userPage.screenshot({ path: join(SCREENSHOT_DIR, 'freeze-refused-en-day.png') });
    expect(await openOrders()).toBe(0);

    await setTrading(false, 'Payment confirmed by the bank');
    await alert.waitFor({ state: 'detached' });
    await placeBuy();
    await expect.poll(openOrders, { timeout: 10_000 }).toBe(1);
    expect(problems).toEqual([]);
  }, 180_000);
});
