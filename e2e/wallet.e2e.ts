// Wallets and funding in real Chromium against a real server of its own: a real-name-approved user gets a
// deposit address, a signed custody callback (sent by the test, as the provider would) credits it once,
// the user moves part to the lever wallet and back, flash-exchanges USDT for BTC at the server's price,
// adds an address to the book and withdraws to it, each with a code the server e-mails (read from the test's
// own SMTP mailbox); an administrator approves and the provider's completion callback arrives. Every page shows the right numbers at every step, and every currency still sums to
// zero. Screenshots in day and night, English and Chinese, go to artifacts/screenshots.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { formatDecimal, parseDecimal } from '@fairex/shared/decimal.ts';
import zh from '../packages/web/src/i18n/locales/zh.json' with { type: 'json' };
import { launchBrowser, newContext } from './support/browser.ts';
import { FairexPage } from './support/fairex-page.ts';
import { Mailbox } from './support/mailbox.ts';
import { passSecondFactor } from './admin-seed.ts';
import { seedWalletFolder, sendCallback, startWalletServer } from './wallet-seed.ts';
import type { WalletSeed, WalletServer } from './wallet-seed.ts';

const USDT_TRC20_CONTRACT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
/** A real TRON address with a valid checksum to withdraw to (the USDT contract's own address). */
const PAYOUT_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
/** The server sends one code per destination and purpose a minute (accounts/codes.ts). */
const CODE_RESEND_MS = 60_000;

describe('wallets and funding', () => {
  const mailbox = new Mailbox();
  /** When the last withdrawal code was asked for (0: never). */
  let codeSentAtMs = 0;
  let dataDir: string;
  let server: WalletServer;
  let seed: WalletSeed;
  let browser: Browser;
  let context: BrowserContext;
  let fairex: FairexPage;
  let page: Page;
  let depositAddress: string;
  let flashed: { paid: string; received: string };

  async function api<T>(
    path: string,
    body: Record<string, unknown> = {},
    token = seed.user.token,
  ): Promise<T> {
    const response = await fetch(`${server.baseURL}/api${path}`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const reply = (await response.json()) as { type: string; message: T };
    expect(reply.type, JSON.stringify(reply)).toBe('ok');
    return reply.message;
  }

  async function adminGet<T>(path: string): Promise<T> {
    const response = await fetch(`${server.baseURL}/api${path}`, {
      headers: { authorization: seed.adminToken },
    });
    const reply = (await response.json()) as { type: string; message: T };
    expect(reply.type, JSON.stringify(reply)).toBe('ok');
    return reply.message;
  }

  async function expectLedgerBalanced(): Promise<void> {
    const ledger = await adminGet<{ list: { currency_name: string; sum: string }[] }>('/admin/wallet/ledger');
    for (const row of ledger.list) expect(row.sum, row.currency_name).toMatch(/^0(\.0+)?$/);
  }

  /** The text input of an antd field, wherever antd put the test id (the input or its wrapper). */
  function inputOf(testId: string) {
    return page.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();
  }

  async function textOf(testId: string): Promise<string> {
    return (await page.getByTestId(testId).innerText()).trim();
  }

  async function waitForText(testId: string, expected: string): Promise<void> {
    await expect
      .poll(async () => (await page.getByTestId(testId).count()) > 0 && (await textOf(testId)), {
        timeout: 15_000,
      })
      .toBe(expected);
  }

  /**
   * Presses the form's "Send code" (after the server's one-a-minute wait since the last), reads the code
   * the server e-mailed to the user, and types it into the form's code field.
   */
  async function enterEmailedCode(prefix: 'book' | 'withdraw'): Promise<void> {
    const waitMs = codeSentAtMs + CODE_RESEND_MS + 500 - Date.now();
    if (waitMs > 0) await sleep(waitMs);
    const before = mailbox.mails.length;
    await page.getByTestId(`${prefix}-send-code`).click();
    codeSentAtMs = Date.now();
    const code = await mailbox.waitForCode(seed.user.account, before);
    await inputOf(`${prefix}-code`).fill(code);
  }

  async function openAssets(): Promise<void> {
    await fairex.goto('/new_account');
    await page.getByTestId('assets-total-btc').waitFor();
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'fairex-wallet-e2e-'));
    seed = await seedWalletFolder(dataDir);
    server = await startWalletServer(dataDir, await mailbox.start());
    // The administrator calls need a session that passed the second factor.
    await passSecondFactor(server.baseURL, seed.adminToken);
    browser = await launchBrowser();
    context = await newContext(browser, { width: 1440, height: 1000 });
    await context.addInitScript(
      ({ token, account, id }) => {
        localStorage.setItem('token', token);
        localStorage.setItem('accountNum', account);
        localStorage.setItem('user_id', String(id));
      },
      { token: seed.user.token, account: seed.user.account, id: seed.user.id },
    );
    fairex = await FairexPage.open(context, server.baseURL, '/new_account');
    page = fairex.page;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await mailbox.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('starts with empty wallets', async () => {
    await openAssets();
    expect(await textOf('assets-total-usd')).toBe('$0.00');
    expect(await textOf('asset-change-USDT-available')).toBe('0.000000');
    expect(await page.getByTestId('asset-recharge-USDT').isVisible()).toBe(true);
  });

  it('gives a TRC20 deposit address and credits a signed deposit once', async () => {
    await page.getByTestId('asset-recharge-USDT').click();
    await page.getByTestId('deposit-address').waitFor();
    expect(fairex.location()).toBe('/recharge?id=3');
    depositAddress = await textOf('deposit-address');
    expect(depositAddress).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(await page.getByTestId('deposit-qr').locator('svg').isVisible()).toBe(true);
    expect(await textOf('deposit-tips')).toContain('TRC20');

    const trade = {
      address: depositAddress,
      amount: '1500000000',
      decimals: '6',
      fee: '0',
      mainCoinType: '195',
      coinType: USDT_TRC20_CONTRACT,
      txId: 'e2e0'.repeat(16),
      tradeId: 'e2e-trade-1',
      tradeType: 1,
      status: 3,
      businessId: '',
      memo: '',
    };
    expect(await sendCallback(server.baseURL, trade)).toBe('success');
    // The provider repeats the callback: still credited once.
    expect(await sendCallback(server.baseURL, trade)).toBe('success');
    // A forged one credits nothing.
    const forged = await fetch(`${server.baseURL}/api/custody/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        timestamp: String(Date.now()),
        nonce: 'x',
        sign: '0'.repeat(32),
        body: JSON.stringify({ ...trade, txId: 'forged', amount: '99000000000' }),
      }).toString(),
    });
    expect(await forged.text()).toBe('error');

    await page.reload();
    const records = page.getByTestId('deposit-records');
    await expect.poll(() => records.innerText(), { timeout: 15_000 }).toContain('1,500.000000');
    expect((await records.innerText()).match(/1,500\.000000/g)).toHaveLength(1);
    await fairex.screenshot('wallet-deposit-day-en');

    await openAssets();
    await waitForText('asset-change-USDT-available', '1,500.000000');
    expect(await textOf('assets-total-usd')).toBe('$1,500.00');
    expect(await textOf('asset-change-USDT-usd')).toBe('$1,500.00');
    await expectLedgerBalanced();
  });

  it('transfers part to the lever wallet and back', async () => {
    await fairex.goto('/transferLegal?currency=3');
    await waitForText('transfer-available', '1,500.000000');
    await inputOf('transfer-amount').fill('200');
    await page.getByTestId('transfer-submit').click();
    await page.getByText('Transfer complete.').waitFor();
    await waitForText('transfer-available', '1,300.000000');

    // Back: swap the sides and move 80 from lever to spot.
    await page.getByTestId('transfer-swap').click();
    await waitForText('transfer-available', '200.000000');
    await inputOf('transfer-amount').fill('80');
    await page.getByTestId('transfer-submit').click();
    await waitForText('transfer-available', '120.000000');
    const records = await page.getByTestId('transfer-records').innerText();
    expect(records).toContain('200.000000');
    expect(records).toContain('80.000000');
    await fairex.screenshot('wallet-transfer-day-en');

    await openAssets();
    await waitForText('asset-change-USDT-available', '1,380.000000');
    await page.getByTestId('assets-tab-lever').click();
    await waitForText('asset-lever-USDT-available', '120.000000');
    expect(await textOf('assets-lever-total-usd')).toBe('$120.00');
    expect(await textOf('assets-total-usd')).toBe('$1,500.00');
    await expectLedgerBalanced();
  });

  it('flash-exchanges USDT for BTC at the server price and returns to the assets page', async () => {
    // The house's flash inventory, funded by the administrator.
    await api(
      '/admin/wallet/house_fund',
      { currency: 1, amount: '1', note: 'e2e flash inventory' },
      seed.adminToken,
    );
    await fairex.goto('/flash');
    await expect
      .poll(() => textOf('flash-price'), { timeout: 30_000 })
      .toMatch(/^1 BTC = [\d,]+(\.\d+)? USDT$/);
    await waitForText('flash-available', '1,380.000000');
    await inputOf('flash-paid').fill('650');
    const estimate = await inputOf('flash-received').inputValue();
    expect(estimate).toMatch(/^0\.\d{8}$/);
    await fairex.screenshot('wallet-flash-day-en');
    await page.getByTestId('flash-submit').click();
    await page.waitForURL(/\/new_account$/, { timeout: 10_000 });

    const records = await api<{
      data: { num: string; absolute_quantity: string; price: string; fee: string }[];
    }>('/wallet/myFlashAgainstList');
    const record = records.data[0];
    expect(record?.num).toBe('650.000000');
    // received = 650 / price x (1 - 0.2 %), rounded down to 8 decimals: check the server's record by it.
    const priceMinor = parseDecimal(record?.price ?? '0', 8);
    const expected = (650n * 10n ** 8n * 10n ** 8n * 998_000n) / (priceMinor * 1_000_000n);
    expect(record?.absolute_quantity).toBe(formatDecimal(expected, 8));
    flashed = { paid: '650', received: record?.absolute_quantity ?? '' };

    await page.getByTestId('assets-total-btc').waitFor();
    await waitForText('asset-change-USDT-available', '730.000000');
    await waitForText('asset-change-BTC-available', flashed.received);
    await expectLedgerBalanced();
  });

  it('adds a withdrawal address to the book with the e-mailed code', async () => {
    await fairex.goto('/withdraw_address?id=3');
    await page.getByTestId('book-address').fill(`  ${PAYOUT_ADDRESS} `);
    await page.getByTestId('book-notes').fill('cold');
    // Without the code the session alone is not enough.
    await page.getByTestId('book-add').click();
    await page.getByText('Enter the verification code sent to your e-mail first.').waitFor();
    expect(await page.getByTestId('book-list').innerText()).not.toContain(PAYOUT_ADDRESS);
    await enterEmailedCode('book');
    await page.getByTestId('book-add').click();
    await expect
      .poll(() => page.getByTestId('book-list').innerText(), { timeout: 10_000 })
      .toContain(PAYOUT_ADDRESS);
    expect(await page.getByTestId('book-list').innerText()).toContain('TRC20');
    // A mistyped address is refused with its reason.
    await page.getByTestId('book-address').fill('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u');
    await page.getByTestId('book-add').click();
    await page.getByText('This TRC20 address contains a typo: its checksum does not match.').waitFor();
    await fairex.screenshot('wallet-address-book-day-en');
  });

  it('withdraws to the book address with the e-mailed code, is approved and completes on the callback', async () => {
    await fairex.goto('/withdrawal?id=3');
    await waitForText('withdraw-available', '730.000000');
    expect(await textOf('withdraw-fee')).toBe('1.000000 USDT');
    expect(await textOf('withdraw-min')).toBe('10.000000 USDT');
    await inputOf('withdraw-address').click();
    await page.getByText('cold ·').click();
    expect(await inputOf('withdraw-address').inputValue()).toBe(PAYOUT_ADDRESS);
    await inputOf('withdraw-amount').fill('5');
    await page.getByTestId('withdraw-submit').click();
    expect(await page.getByTestId('withdraw-problem').innerText()).toContain('at least 10 USDT');
    await inputOf('withdraw-amount').fill('100');
    expect(await textOf('withdraw-receive')).toBe('99.000000 USDT');
    await enterEmailedCode('withdraw');
    await page.getByTestId('withdraw-submit').click();
    await page.getByText('Your withdrawal request has been received and is waiting for review.').waitFor();
    const records = page.getByTestId('withdrawal-records');
    await expect.poll(() => records.innerText(), { timeout: 10_000 }).toContain('Under review');
    // Each withdrawal names its network and the address it goes to (shortened; whole on hover).
    const destination = records.locator('[data-testid^="withdrawal-destination-"]').first();
    expect(await destination.innerText()).toMatch(/TRC20\s*TR7NHqje…gjLj6t/);
    expect(await destination.getAttribute('title')).toBe(PAYOUT_ADDRESS);
    await waitForText('withdraw-available', '630.000000');
    await fairex.screenshot('wallet-withdrawal-day-en');

    await openAssets();
    await waitForText('asset-change-USDT-frozen', '100.000000');
    await waitForText('asset-change-USDT-available', '630.000000');

    // The administrator approves; the (sandbox) payout waits for the chain.
    const list = await api<{ data: { id: number; address: string }[] }>('/wallet/out_list', { currency: 3 });
    const withdrawal = list.data[0] as { id: number; address: string };
    await api('/admin/wallet/withdrawal/approve', { id: withdrawal.id }, seed.adminToken);
    await fairex.goto('/withdrawal?id=3');
    await expect
      .poll(() => page.getByTestId('withdrawal-records').innerText(), { timeout: 10_000 })
      .toContain('Sending');

    // The provider reports the payout confirmed (99 USDT reached the address).
    const completion = {
      address: withdrawal.address,
      amount: '99000000',
      decimals: '6',
      fee: '0',
      mainCoinType: '195',
      coinType: USDT_TRC20_CONTRACT,
      txId: 'e2e-payout-tx-1',
      tradeId: 'e2e-trade-2',
      tradeType: 2,
      status: 3,
      businessId: String(withdrawal.id),
      memo: '',
    };
    expect(await sendCallback(server.baseURL, completion)).toBe('success');
    await page.reload();
    await expect
      .poll(() => page.getByTestId('withdrawal-records').innerText(), { timeout: 10_000 })
      .toContain('Completed');

    await openAssets();
    await waitForText('asset-change-USDT-frozen', '0.000000');
    await waitForText('asset-change-USDT-available', '630.000000');
    await expectLedgerBalanced();
    // The code waits out the server's minute between two codes to one address.
  }, 180_000);

  it('shows every movement in the account ledger', async () => {
    await fairex.goto('/transferLog');
    const ledger = page.getByTestId('records-ledger');
    await expect.poll(() => ledger.innerText(), { timeout: 10_000 }).toContain('Deposit');
    const text = await ledger.innerText();
    for (const expected of [
      '+1,500.000000',
      '-200.000000',
      '+80.000000',
      '-650.000000',
      'Flash exchange receipt',
      'Flash exchange fee',
      'Withdrawal paid out',
    ]) {
      expect(text).toContain(expected);
    }
    await page.getByTestId('ledger-no-more').waitFor();
    expect(fairex.problems).toEqual([]);
  });

  it('looks right in day and night, English and Chinese', async () => {
    const pages: [string, string][] = [
      ['assets', '/new_account'],
      ['transfer', '/transferLegal?currency=3'],
      ['flash', '/flash'],
      ['deposit', '/recharge?id=3'],
      ['withdrawal', '/withdrawal?id=3'],
      ['address-book', '/withdraw_address?id=3'],
      ['records', '/transferLog'],
    ];
    for (const [lang, theme] of [
      ['en', 'night'],
      ['zh', 'day'],
      ['zh', 'night'],
    ] as const) {
      const styled = await newContext(browser, { width: 1440, height: 1000 });
      await styled.addInitScript(
        ({ token, account, id, language, night }) => {
          localStorage.setItem('token', token);
          localStorage.setItem('accountNum', account);
          localStorage.setItem('user_id', String(id));
          localStorage.setItem('lang', language);
          localStorage.setItem('night_mode', night ? '1' : '0');
        },
        {
          token: seed.user.token,
          account: seed.user.account,
          id: seed.user.id,
          language: lang,
          night: theme === 'night',
        },
      );
      const view = await FairexPage.open(styled, server.baseURL, '/new_account');
      for (const [name, path] of pages) {
        await view.goto(path);
        await view.page.waitForLoadState('networkidle');
        await view.screenshot(`wallet-${name}-${theme}-${lang}`);
      }
      if (lang === 'zh') {
        await view.goto('/new_account');
        await view.page.getByText(zh.wallet.totalAssets).first().waitFor();
        expect(await view.page.getByTestId('assets-tab-change').innerText()).toBe(zh.wallet.names.change);
      }
      expect(await view.theme()).toBe(theme);
      expect(view.problems).toEqual([]);
      await styled.close();
    }
    for (const [name, path] of pages.slice(0, 1)) {
      await fairex.goto(path);
      await fairex.screenshot(`wallet-${name}-day-en`);
    }
  });

  it('asks an unverified user for the real name before the withdrawal form; fits 1440 and 390 px', async () => {
    for (const [user, name] of [
      [seed.unverified, 'unverified'],
      [seed.user, 'verified'],
    ] as const)
      for (const width of [1440, 390])
        for (const lang of ['en', 'zh'] as const) {
          const sized = await newContext(browser, { width, height: 900 });
          await sized.addInitScript(
            ({ token, account, id, language }) => {
              localStorage.setItem('token', token);
              localStorage.setItem('accountNum', account);
              localStorage.setItem('user_id', String(id));
              localStorage.setItem('lang', language);
            },
            { token: user.token, account: user.account, id: user.id, language: lang },
          );
          const view = await FairexPage.open(sized, server.baseURL, '/withdrawal?id=3');
          if (name === 'unverified') {
            const prompt = view.page.getByTestId('withdraw-real-name');
            await prompt.waitFor();
            expect(await prompt.innerText()).toContain(
              lang === 'zh' ? zh.wallet.realNameFirstTitle : 'Verify your identity to withdraw',
            );
            // Asked up front: no form to fill in first.
            expect(await view.page.getByTestId('withdraw-amount').count()).toBe(0);
            expect(await view.page.getByTestId('withdraw-submit').count()).toBe(0);
            expect(await view.page.getByTestId('withdraw-verify-link').getAttribute('href')).toBe(
              '/authentication',
            );
          } else {
            await view.page.getByTestId('withdraw-submit').waitFor();
            await view.page.locator('[data-testid^="withdrawal-destination-"]').first().waitFor();
          }
          await view.page.waitForLoadState('networkidle');
          expect(await view.scrollWidth(), `${name} ${width} ${lang}`).toBeLessThanOrEqual(width);
          await view.screenshot(`wallet-withdrawal-${name}-${width}-${lang}`);
          expect(view.problems).toEqual([]);
          await sized.close();
        }
  });
});
