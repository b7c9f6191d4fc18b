// The back office in real Chromium against a real server of its own: an administrator signs in with a
// password and an authenticator enrolled on the spot (the code computed here, as the phone app would),
// approves a real-name request and a withdrawal, changes a pair's fees and sees the trading page use them,
// publishes a news item in two languages that the site then shows, and finds each of these actions in the
// audit log. Screenshots in day and night, English and Chinese, go to artifacts/screenshots.
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import zhAdmin from '../packages/web/src/admin/locales/zh.json' with { type: 'json' };
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  BTC,
  USDT,
  startAdminScenario,
  type AdminScenario,
} from './admin-seed.ts';
import { launchBrowser, newContext } from './support/browser.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';

interface Envelope<T> {
  type: string;
  message: T;
}

describe('the back office', () => {
  let scenario: AdminScenario;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let secret = '';
  const problems: string[] = [];

  async function get<T>(path: string, token?: string): Promise<Envelope<T>> {
    const response = await fetch(`${scenario.server.baseURL}/api${path}`, {
      headers: token === undefined ? {} : { authorization: token },
    });
    return (await response.json()) as Envelope<T>;
  }

  async function shot(name: string): Promise<void> {
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    await page.evaluate(
      () =>
        (globalThis as unknown as { document: { fonts: { ready: Promise<unknown> } } }).document.fonts.ready,
    );
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  }

  async function nav(section: string): Promise<void> {
    await page.getByTestId(`admin-nav-${section}`).click();
    await page.waitForURL(`**/admin/${section}`);
  }

  /** Waits for the success toast the console shows with the server's own confirmation. */
  async function toast(text: string | RegExp): Promise<void> {
    await page.locator('.fx-toast.is-success').filter({ hasText: text }).first().waitFor();
  }

  beforeAll(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'fairex-admin-e2e-'));
    scenario = await startAdminScenario(dataDir);
    browser = await launchBrowser();
    context = await newContext(browser, { width: 1440, height: 900 });
    page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
  });

  // A failed step leaves a picture of what the console showed.
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail' && page !== undefined) {
      await shot(`admin-failed-${context.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`).catch(
        () => undefined,
      );
    }
  });

  afterAll(async () => {
    await browser?.close();
    await scenario?.server.stop();
  });

  it('signs in with the password, then enrols an authenticator and passes its code', async () => {
    await page.goto(`${scenario.server.baseURL}/admin`);
    await page.waitForURL('**/admin/login');
    // The site's own header and footer are not part of the console.
    expect(await page.getByTestId('header').count()).toBe(0);
    await shot('admin-login-en-day');
    await page.getByTestId('admin-login-username').fill(ADMIN_USERNAME);
    await page.getByTestId('admin-login-password').fill('not the password');
    await page.getByTestId('admin-login-submit').click();
    await page.getByTestId('admin-login-error').waitFor();
    await page.getByTestId('admin-login-password').fill(ADMIN_PASSWORD);
    await page.getByTestId('admin-login-submit').click();

    const secretText = page.getByTestId('admin-enrol-secret');
    await secretText.waitFor();
    secret = ((await secretText.textContent()) ?? '').trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await shot('admin-enrol-en-day');
    // Without a code the console has nothing to show yet.
    expect((await get('/backoffice/dashboard')).type).toBe('999');
    const code = new TOTP({
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
      secret: Secret.fromBase32(secret),
    }).generate();
    await page.getByTestId('admin-code-input').fill(code);
    await page.getByTestId('admin-code-submit').click();
    await page.waitForURL('**/admin/dashboard');
    await page.getByTestId('solvency-table').waitFor();
    await page.getByTestId('solvency-state').waitFor();
    expect(await page.getByTestId('solvency-alarm').count()).toBe(0);
    expect(await page.getByTestId('solvency-sum-USDT').textContent()).toBe('0.000000');
    // Where the journal and the projections behind it stand.
    expect(await page.getByTestId('admin-journal').textContent()).toMatch(
      /Journal at command \d+ · history and records projected to \d+ · \d+ commands \(\d+ ms\) behind/,
    );
    await shot('admin-dashboard-en-day');
  });

  it('approves the real-name request after looking at its photos', async () => {
    await nav('real-name');
    await page.getByTestId(`realname-open-${scenario.submissionId}`).click();
    const drawer = page.getByTestId('realname-drawer');
    await drawer.getByText('Zhang Wei').waitFor();
    for (const photo of ['front', 'back', 'hand']) {
      const image = page.getByTestId(`realname-photo-${photo}`).locator('img');
      await image.waitFor();
      expect(
        await image.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth),
      ).toBe(480);
    }
    await shot('admin-realname-en-day');
    // Approving asks first, naming who is approved; nothing is sent until it is confirmed.
    await page.getByTestId('realname-approve').click();
    const confirm = page.getByTestId('realname-approve-confirm');
    await confirm.waitFor();
    expect(await page.locator('.ant-popconfirm').innerText()).toContain('Approve this submission?');
    expect(
      (await get<{ review_status: number }>('/user/center', scenario.applicant.token)).message.review_status,
    ).not.toBe(2);
    await shot('admin-realname-confirm-en-day');
    await confirm.click();
    await toast('The verification has been approved.');
    const center = await get<{ review_status: number }>('/user/center', scenario.applicant.token);
    expect(center.message.review_status).toBe(2);
  });

  it('approves the withdrawal with the user beside it, and confirms the sandbox payout', async () => {
    await nav('funding');
    await page.getByTestId(`withdrawal-open-${scenario.withdrawalId}`).click();
    const drawer = page.getByTestId('withdrawal-drawer');
    await drawer.getByText('120.000000').first().waitFor();
    await shot('admin-withdrawal-en-day');
    await page.getByTestId('withdrawal-approve').click();
    await toast('The withdrawal has been approved and handed to the payout.');
    await page.getByTestId('withdrawal-confirm').click();
    await page.getByPlaceholder('Transaction ID').fill('sandbox-payout-1');
    await page.locator('.ant-modal-footer .ant-btn-primary').last().click();
    await toast('The withdrawal has been confirmed as paid out.');
    await drawer.getByText('sandbox-payout-1').waitFor();
    await page.locator('.ant-drawer-close').click();
    await drawer.waitFor({ state: 'hidden' });
    const records = await fetch(`${scenario.server.baseURL}/api/wallet/out_list?lang=en`, {
      method: 'POST',
      headers: { authorization: scenario.withdrawer.token, 'content-type': 'application/json' },
      body: JSON.stringify({ currency: USDT }),
    }).then((response) => response.json() as Promise<Envelope<{ data: { id: number; status: string }[] }>>);
    expect(records.message.data.find((row) => row.id === scenario.withdrawalId)?.status).toBe('completed');
  });

  async function post<T>(path: string, token: string, body: Record<string, unknown>): Promise<Envelope<T>> {
    const response = await fetch(`${scenario.server.baseURL}/api${path}?lang=en`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await response.json()) as Envelope<T>;
  }

  it("changes a pair's fees through the engine, and the next trade pays them", async () => {
    const dealBefore = await get<{ market: { maker_fee: string; taker_fee: string } }>(
      `/transaction/deal?legal_id=${USDT}&currency_id=${BTC}`,
    );
    expect(dealBefore.message.market).toMatchObject({ maker_fee: '0.1', taker_fee: '0.1' });

    await nav('markets');
    await page.getByTestId('market-edit-1').click();
    await page.getByTestId('market-maker-fee').fill('0.02');
    await page.getByTestId('market-taker-fee').fill('0.25');
    await page.getByTestId('market-save').click();
    await page.getByTestId('market-fees-1').filter({ hasText: '0.02% / 0.25%' }).waitFor();
    await shot('admin-markets-en-day');

    // The seller's order rests (maker), the buyer's crosses it (taker); each pays from what it receives.
    const order = { legal_id: USDT, currency_id: BTC, price: '30000', num: '0.1', mode: 2 };
    expect((await post('/transaction/out', scenario.seller.token, order)).type).toBe('ok');
    expect((await post('/transaction/in', scenario.buyer.token, order)).type).toBe('ok');
    const bought = await post<{ data: { in_fee: string }[] }>(
      '/transaction_complete',
      scenario.buyer.token,
      {},
    );
    expect(bought.message.data[0]?.in_fee).toBe('0.00025000');
    const sold = await post<{ data: { out_fee: string }[] }>(
      '/transaction_complete',
      scenario.seller.token,
      {},
    );
    expect(sold.message.data[0]?.out_fee).toBe('0.600000');
  });

  it('shows the new fees on the trading page', async () => {
    const deal = await get<{ market: { maker_fee: string; taker_fee: string } }>(
      `/transaction/deal?legal_id=${USDT}&currency_id=${BTC}`,
    );
    expect(deal.message.market).toMatchObject({ maker_fee: '0.02', taker_fee: '0.25' });
    const trading = await context.newPage();
    await trading.goto(`${scenario.server.baseURL}/dealCenter`);
    await trading.getByText('taker 0.25%').first().waitFor();
    await trading.close();
  });

  it('publishes a news item in English and Chinese that the site then shows', async () => {
    await nav('content');
    await page.getByTestId('content-new').click();
    await page.waitForURL('**/admin/content/items/new');
    await page.getByTestId('news-title-en').fill('Scheduled maintenance on Sunday');
    await page.getByTestId('news-body-en').click();
    await page.keyboard.type('Deposits pause for thirty minutes while we upgrade the wallet nodes.');
    await page.getByTestId('news-tab-zh').click();
    await page.getByTestId('news-lang-zh').check();
    await page.getByTestId('news-title-zh').fill('周日例行维护');
    await page.getByTestId('news-body-zh').click();
    await page.keyboard.type('钱包节点升级期间，充值暂停三十分钟。');
    await page.getByTestId('news-published').click();
    await shot('admin-news-editor-en-day');
    await page.getByTestId('news-save').click();
    await page.waitForURL(/\/admin\/content\/items\/\d+$/);

    for (const [lang, title] of [
      ['en', 'Scheduled maintenance on Sunday'],
      ['zh', '周日例行维护'],
    ] as const) {
      const reader = await newContext(browser, { width: 1280, height: 800 });
      await reader.addInitScript((language) => localStorage.setItem('lang', language), lang);
      const site = await reader.newPage();
      await site.goto(`${scenario.server.baseURL}/noticeList`);
      await site.getByText(title).first().waitFor();
      await reader.close();
    }
  });

  it('finds each of these actions in the audit log, with who, before and after, and from where', async () => {
    await nav('audit');
    const table = page.getByTestId('audit-table');
    for (const action of [
      'admin.second_factor_enrol',
      'real_name.approve',
      'wallet.withdrawal_approve',
      'wallet.withdrawal_sandbox_confirm',
      'market.update',
      'news_item.create',
    ]) {
      await table.getByText(action, { exact: true }).first().waitFor();
    }
    const feeRow = table.locator('tr').filter({ hasText: 'market.update' }).first();
    expect(await feeRow.textContent()).toContain(ADMIN_USERNAME);
    expect(await feeRow.textContent()).toMatch(/taker_fee\s*"?0\.1"?\s*→\s*"?0\.25/);
    expect(await feeRow.textContent()).toContain('127.0.0.1');
    await shot('admin-audit-en-day');
  });

  it('looks right at night and in Chinese', async () => {
    await page.getByTestId('admin-night-toggle').click();
    await nav('dashboard');
    await page.getByTestId('solvency-table').waitFor();
    await shot('admin-dashboard-en-night');
    await nav('audit');
    await page.getByTestId('audit-table').waitFor();
    await shot('admin-audit-en-night');

    await page.getByTestId('admin-language').click();
    await Promise.all([page.waitForEvent('load'), page.getByTestId('admin-language-zh').click()]);
    await page.getByTestId('audit-table').waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
    await page.getByText('审计日志').first().waitFor();
    await shot('admin-audit-zh-night');
    await nav('dashboard');
    await page.getByTestId('solvency-table').waitFor();
    await page.getByText('偿付能力').first().waitFor();
    expect(await page.getByTestId('admin-journal').textContent()).toMatch(/日志已到第 \d+ 条命令/);
    await shot('admin-dashboard-zh-night');
    await page.getByTestId('admin-night-toggle').click();
    await shot('admin-dashboard-zh-day');
    await nav('users');
    await page.getByTestId('users-search').waitFor();
    await shot('admin-users-zh-day');
    await page.getByTestId(`user-link-${scenario.buyer.id}`).click();
    await page.getByTestId('user-balances').getByText('0.09975000').waitFor();
    await shot('admin-user-zh-day');
    await nav('funding');
    await shot('admin-funding-zh-day');
    // The deposits list fits the screen: no sideways scrolling at 1440 px.
    await page.getByRole('tab', { name: zhAdmin.funding.deposits, exact: true }).click();
    await shot('admin-deposits-zh-day');
    await page.getByTestId('deposits-table').locator('.ant-table-row').first().waitFor();
    expect(
      await page
        .getByTestId('deposits-table')
        .locator('.ant-table-content')
        .evaluate((element) => {
          const box = element as unknown as { scrollWidth: number; clientWidth: number };
          return box.scrollWidth <= box.clientWidth;
        }),
    ).toBe(true);
    await shot('admin-deposits-zh-day');
    await nav('settings');
    await page.getByText('market.fees').first().waitFor();
    await shot('admin-settings-zh-day');
    expect(problems).toEqual([]);
  });
});
