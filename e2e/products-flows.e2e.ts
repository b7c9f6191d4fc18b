// Token sales, cloud mining and defi staking in real Chromium against a real server with the demo products
// (support/clock.ts lets the test move the server's clock forward, so days pass for the accrual job as
// they do in production; the back office's "run accrual now" call saves waiting for the job's next minute).
// A user funded through the deposit path buys IEPN and sees the sale's progress move, then opens IEPN/USDT
// from the IEPN page; rents a miner, lets days pass, and extracts the earnings into the miner wallet; stakes
// USDT, sees it accrue, and after the period sees principal and earnings back in the defi wallet. Every
// amount is checked against the API and the user's wallets. Screenshots in day and night, English and
// Chinese, on a desktop and a phone, go to artifacts/screenshots.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type {
  DefiListReply,
  IcoListReply,
  MinerEarningsReply,
  MinerListReply,
  MinerOrderInfo,
} from '@fairex/shared';
import en from '../packages/web/src/i18n/locales/en.json' with { type: 'json' };
import zh from '../packages/web/src/i18n/locales/zh.json' with { type: 'json' };
import { launchBrowser, newContext } from './support/browser.ts';
import { FairexPage } from './support/fairex-page.ts';
import { startProductsServer, type ProductsE2E } from './products-seed.ts';

interface WalletLine {
  currency_name: string;
  [field: string]: unknown;
}

function grouped(text: string): string {
  const [whole = '', fraction] = text.split('.');
  const withCommas = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? withCommas : `${withCommas}.${fraction}`;
}

/** Exact decimal text as minor units at `scale`. */
function units(text: string, scale: number): bigint {
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole + fraction.padEnd(scale, '0').slice(0, scale));
}

describe('token sales, cloud mining and defi staking', () => {
  let env: ProductsE2E;
  let browser: Browser;
  let context: BrowserContext;
  let fairex: FairexPage;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'fairex-products-e2e-'));
    env = await startProductsServer(dataDir, { ico: '1000', miner: '1000', defi: '5000' });
    browser = await launchBrowser();
    context = await newContext(browser, { width: 1440, height: 900 });
    await context.addInitScript(
      ({ token, account, id }) => {
        localStorage.setItem('token', token);
        localStorage.setItem('accountNum', account);
        localStorage.setItem('user_id', String(id));
      },
      { token: env.user.token, account: env.user.account, id: env.user.id },
    );
    fairex = await FairexPage.open(context, env.server.baseURL, '/ico');
    page = fairex.page;
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await env?.server.stop();
  });

  async function walletLine(wallet: string, currency: string): Promise<WalletLine> {
    const list = await env.call<Record<string, { balance: WalletLine[] }>>('/wallet/list');
    const line = list[`${wallet}_wallet`]?.balance.find((candidate) => candidate.currency_name === currency);
    if (line === undefined) throw new Error(`no ${currency} line in the ${wallet} wallet`);
    return line;
  }

  async function toast(text: string): Promise<void> {
    await page.locator('.fx-toast.is-success').filter({ hasText: text }).first().waitFor();
  }

  /** Days pass on the server; the accrual job runs for them (now, rather than at its next minute). */
  async function daysPass(days: number): Promise<void> {
    await env.advanceDays(days);
    await env.admin('/backoffice/products/accrue');
  }

  it('buys IEPN in the sale and sees sold, remaining and progress move', async () => {
    await page.getByTestId('ico-1').waitFor();
    const before = (await env.call<IcoListReply>('/ico/list', { status: -1 })).data[0];
    if (before === undefined) throw new Error('no sale listed');
    expect(await page.getByTestId('ico-1-sold').textContent()).toBe(grouped(before.ico_has));
    expect(await page.getByTestId('ico-1-load').textContent()).toBe(`${before.ico_load}%`);
    // No allocation or release schedule: the sale says the tokens are credited at once and not locked.
    expect(await page.getByTestId('ico-1-release').textContent()).toContain(
      'the IEPN you buy are credited to your ico wallet at once and are not locked',
    );
    await fairex.screenshot('products-ico-en-day');

    await page.getByTestId('ico-1-buy').click();
    await page.getByTestId('ico-buy-dialog').waitFor();
    await page.getByTestId('ico-buy-number').fill('0');
    await page.getByTestId('ico-buy-confirm').click();
    expect(await page.getByTestId('ico-buy-problem').textContent()).toContain(en.products.minimumNumber);
    await page.getByTestId('ico-buy-number').fill('5000');
    expect(await page.getByTestId('ico-buy-cost').textContent()).toBe('500.000000 USDT');
    await expect.poll(() => page.getByTestId('ico-buy-available').textContent()).toBe('1,000.000000 USDT');
    await fairex.screenshot('products-ico-buy-en-day', false);
    await page.getByTestId('ico-buy-confirm').click();
    await toast('Bought 5000 IEPN.');

    // Progress is what the ledger holds: 5,000 of 10,000,000 sold is 0.05 %.
    await expect
      .poll(() => page.getByTestId('ico-1-sold').textContent())
      .toBe(grouped(String(BigInt(before.ico_has) + 5000n)));
    await expect.poll(() => page.getByTestId('ico-1-load').textContent()).toBe('0.05%');
    expect(await page.getByTestId('ico-1-remaining').textContent()).toBe(
      grouped(String(BigInt(before.remaining) - 5000n)),
    );
    expect(await page.getByTestId('ico-1-hold').textContent()).toBe('5,000');
    expect(await page.getByTestId('ico-1-hold-amount').textContent()).toBe('500.000000');
    const iepn = await walletLine('ico', 'IEPN');
    expect(units(String(iepn.ico_balance), 4)).toBe(50_000_000n);
    const usdt = await walletLine('ico', 'USDT');
    expect(usdt.ico_balance).toBe('500.000000');
    // A purchase made elsewhere (here over the API) shows without a reload: the list is read every 2 s.
    await env.call('/ico/buy', { id: 1, number: 4000 });
    await expect
      .poll(() => page.getByTestId('ico-1-sold').textContent(), { timeout: 10_000 })
      .toBe(grouped(String(BigInt(before.ico_has) + 9000n)));
    expect(await page.getByTestId('ico-1-load').textContent()).toBe('0.09%');

    // The IEPN page: the pie's issued part is the same sale's ledger sum; its button opens IEPN/USDT.
    await page.goto(`${env.server.baseURL}/upstart`);
    await page.getByTestId('upstart-info').waitFor();
    expect(await page.getByTestId('upstart-issued').textContent()).toBe('9,000');
    expect(await page.getByTestId('upstart-issued-share').textContent()).toBe('0.09%');
    expect(await page.getByTestId('upstart-remaining-share').textContent()).toBe('99.91');
    await fairex.screenshot('products-upstart-en-day');
    await page.getByTestId('upstart-buy').click();
    await page.waitForURL('**/dealCenter?symbol=IEPN_USDT');
    expect(await fairex.stored('symbol')).toBe('IEPN/USDT');
  });

  it('rents a miner, lets days pass and extracts the earnings into the miner wallet', async () => {
    await page.goto(`${env.server.baseURL}/miner`);
    await page.getByTestId('miner-2').waitFor();
    expect(await page.getByTestId('miner-2-rule').textContent()).toBe(en.products.miner.rateFixed);
    expect(await page.getByTestId('miner-3-rule').textContent()).toContain('0.00001500 - 0.00002500 BTC');
    await page.getByTestId('miner-2-buy').click();
    await page.getByTestId('miner-buy-number').fill('2');
    expect(await page.getByTestId('miner-buy-rent').textContent()).toBe('300.000000 USDT');
    expect(await page.getByTestId('miner-buy-fee').textContent()).toBe('6.000000 USDT');
    expect(await page.getByTestId('miner-buy-paid').textContent()).toBe('306.000000 USDT');
    await page.getByTestId('miner-buy-confirm').click();
    await toast('Rented 2 units.');
    expect((await walletLine('miner', 'USDT')).miner_balance).toBe('694.000000');

    const rent = (await env.call<MinerListReply>('/miner/record', { status: 1 })).data[0];
    if (rent === undefined) throw new Error('the rent is not listed');
    await page.getByTestId('miner-tab-1').click();
    await page.getByTestId(`miner-rent-${rent.id}`).waitFor();
    expect(await page.getByTestId(`miner-rent-${rent.id}-earnings-total`).textContent()).toBe('0.00000000');

    // Three days pass: the rent accrues from the day after it, so two whole days are credited, each 2 units
    // x 0.00002 BTC.
    await daysPass(3);
    const info = await env.call<MinerOrderInfo>('/miner/info', { id: rent.id });
    expect(info.days_accrued).toBe(2);
    expect(info.earnings_total).toBe('0.00008000');
    await page.reload();
    await page.getByTestId('miner-tab-1').click();
    await expect
      .poll(() => page.getByTestId(`miner-rent-${rent.id}-earnings-total`).textContent())
      .toBe('0.00008000');
    await fairex.screenshot('products-miner-rents-en-day');

    await page.getByTestId(`miner-rent-${rent.id}-earnings-link`).click();
    await page.getByTestId('miner-earnings-page').waitFor();
    const earnings = await env.call<MinerEarningsReply>('/miner/earnings', { id: rent.id });
    expect(earnings.data.map((line) => line.earnings_amount)).toEqual(['0.00004000', '0.00004000']);
    for (const line of earnings.data) {
      await expect
        .poll(() => page.getByTestId(`earning-${line.id}-amount`).textContent())
        .toBe(line.earnings_amount);
      expect(await page.getByTestId(`earning-${line.id}-per-unit`).textContent()).toBe(line.per_unit);
    }

    await page.goto(`${env.server.baseURL}/miner_extract?id=${rent.id}`);
    await page.getByTestId('rent-header').waitFor();
    expect(await page.getByTestId('rent-extractable').textContent()).toBe('0.00008000');
    expect(await page.getByTestId('rent-days-left').textContent()).toBe(String(info.end_day));
    await page.getByTestId('miner-extract-number').fill('0.00005');
    await page.getByTestId('miner-extract-submit').click();
    await toast('0.00005000 BTC moved to your miner wallet.');
    await expect.poll(() => page.getByTestId('rent-extracted').textContent()).toBe('0.00005000');
    expect(await page.getByTestId('rent-extractable').textContent()).toBe('0.00003000');
    expect(await page.getByTestId('rent-total-income').textContent()).toBe('0.00008000');
    expect(await page.getByTestId('miner-extract-number').inputValue()).toBe('');
    // More than is extractable: the server's translated refusal, nothing moved.
    await page.getByTestId('miner-extract-number').fill('1');
    await page.getByTestId('miner-extract-submit').click();
    await page.locator('.fx-toast.is-error').first().waitFor();
    expect(await page.getByTestId('rent-extractable').textContent()).toBe('0.00003000');
    await fairex.screenshot('products-extract-en-day');
    expect((await walletLine('miner', 'BTC')).miner_balance).toBe('0.00005000');
  });

  it('stakes USDT, sees it accrue, and gets principal and earnings back at the end', async () => {
    await page.goto(`${env.server.baseURL}/defi`);
    await page.getByTestId('defi-4-stake').waitFor();
    expect(await page.getByTestId('defi-4-stake').textContent()).toBe(en.products.defi.join);
    await page.getByTestId('defi-4-stake').click();
    const dialog = page.getByTestId('defi-stake-dialog');
    await dialog.waitFor();
    // The dialog is 600 px wide (spec 02 section 2.8), as antd sets it on the dialog.
    const width = await page
      .locator('.ant-modal')
      .filter({ has: dialog })
      .evaluate((node) => (node as unknown as { style: { width: string } }).style.width);
    expect(width).toBe('600px');
    await page.getByTestId('defi-stake-confirm').click();
    expect(await page.getByTestId('defi-stake-problem').textContent()).toBe(en.products.defi.enterQuantity);
    await page.getByTestId('defi-stake-number').fill('1000');
    // 1,000 USDT at 8 % APR: floor(1000 x 0.08 / 365) = 0.219178 a day, 30 days.
    expect(await page.getByTestId('defi-stake-daily').textContent()).toBe('0.219178 USDT');
    expect(await page.getByTestId('defi-stake-earnings').textContent()).toBe('6.575340 USDT');
    expect(await page.getByTestId('defi-stake-returned').textContent()).toBe('1,006.575340 USDT');
    await fairex.screenshot('products-defi-stake-en-day', false);
    await page.getByTestId('defi-stake-confirm').click();
    await toast('Staked 1000 USDT.');

    await page.getByTestId('defi-tab-1').click();
    await expect.poll(() => page.getByTestId('defi-4-held').textContent()).toBe('1,000');
    expect(await page.getByTestId('defi-4-earnings').textContent()).toBe('0.000000');
    expect((await walletLine('defi', 'USDT')).lock_defi_balance).toBe('1000.000000');

    await daysPass(2);
    const held = (await env.call<DefiListReply>('/defi/record', { status: 1 })).data[0];
    const stake = held?.stakes[0];
    if (held === undefined || stake === undefined) throw new Error('the stake is not listed');
    expect(stake.days_accrued).toBe(1);
    expect(held.earnings_total).toBe('0.219178');
    await page.reload();
    await page.getByTestId('defi-tab-1').click();
    await expect.poll(() => page.getByTestId('defi-4-earnings').textContent()).toBe('0.219178');
    expect(await page.getByTestId('defi-4-total').textContent()).toBe('1,000.219178');
    await fairex.screenshot('products-defi-held-en-day');

    // The period ends: thirty accrued days, then principal and earnings return to the defi wallet.
    await daysPass(30);
    const ended = (await env.call<DefiListReply>('/defi/record', { status: 2 })).data[0];
    const matured = ended?.stakes[0];
    expect(matured?.state).toBe('matured');
    expect(matured?.days_accrued).toBe(30);
    expect(matured?.returned).toBe('1006.575340');
    await page.reload();
    await page.getByTestId('defi-tab-2').click();
    await page.locator('tr[data-row-key="4"] .ant-table-row-expand-icon').click();
    await expect
      .poll(() => page.getByTestId(`stake-${stake.id}-state`).textContent())
      .toBe(en.products.defi.state.matured);
    expect(await page.getByTestId(`stake-${stake.id}-returned`).textContent()).toBe('1,006.575340');
    const wallet = await walletLine('defi', 'USDT');
    expect(wallet.lock_defi_balance).toBe('0.000000');
    expect(wallet.defi_balance).toBe('5006.575340');
    await fairex.screenshot('products-defi-ended-en-day');
  });

  it('reads in night mode, in Chinese and on a phone', async () => {
    await page.goto(`${env.server.baseURL}/ico`);
    await page.getByTestId('ico-1').waitFor();
    await fairex.toggleNightMode();
    await fairex.screenshot('products-ico-en-night');
    await page.goto(`${env.server.baseURL}/defi`);
    await page.getByTestId('defi-4-apr').waitFor();
    await fairex.screenshot('products-defi-en-night');
    await fairex.chooseLanguage('zh');
    await page.getByTestId('defi-4-apr').waitFor();
    expect(await page.locator('.fx-products-title').textContent()).toBe(zh.products.defi.title);
    await fairex.screenshot('products-defi-zh-night');
    await page.goto(`${env.server.baseURL}/miner`);
    await page.getByTestId('miner-2').waitFor();
    await fairex.screenshot('products-miner-zh-night');
    await fairex.toggleNightMode();

    const phone = await newContext(browser, { width: 390, height: 844 });
    await phone.addInitScript(
      ({ token, account, id }) => {
        localStorage.setItem('token', token);
        localStorage.setItem('accountNum', account);
        localStorage.setItem('user_id', String(id));
        localStorage.setItem('lang', 'zh');
      },
      { token: env.user.token, account: env.user.account, id: env.user.id },
    );
    for (const [path, testId, name] of [
      ['/ico', 'ico-1', 'products-ico-zh-phone'],
      ['/miner', 'miner-2', 'products-miner-zh-phone'],
      ['/defi', 'defi-4-apr', 'products-defi-zh-phone'],
      ['/upstart', 'upstart-info', 'products-upstart-zh-phone'],
    ] as const) {
      const small = await FairexPage.open(phone, env.server.baseURL, path);
      await small.page.getByTestId(testId).waitFor();
      expect(await small.scrollWidth()).toBeLessThanOrEqual(390);
      if (path === '/ico')
        expect(await small.page.getByTestId('ico-1-release').textContent()).toContain(
          zh.products.ico.releaseNote.replace('{{symbol}}', 'IEPN'),
        );
      if (path === '/defi') {
        // The table scrolls sideways rather than breaking "30 天" over two lines: its pieces share one line.
        type Box = { top: number };
        const tops = await small.page
          .getByTestId('defi-4-days')
          .locator('..')
          .evaluate((span) =>
            [...(span as unknown as { getClientRects(): Iterable<Box> }).getClientRects()].map((box) =>
              Math.round(box.top),
            ),
          );
        expect(new Set(tops).size).toBe(1);
      }
      await small.screenshot(name);
      await small.page.close();
    }
    await phone.close();
    expect(problems).toEqual([]);
  });
});
