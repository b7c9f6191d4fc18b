// P2P fiat trade in real Chromium against a real server of its own, with three people each in their own
// browser context: a merchant, a buyer on a phone-sized screen, and a second buyer; plus an administrator.
// The merchant applies, the administrator approves in the back office and the merchant's shop appears live
// (the `seller` push); the merchant adds a bank account and posts a sell ad; the buyer takes it, both chat
// (text and an image), the buyer marks it paid and the merchant releases with the authenticator; each step
// shows in the other party's room without a reload. Then a second order times out unpaid and a third is
// appealed and decided in the back office with reason and second factor, both parties watching. The server
// runs on a clock the test moves forward (support/clock.ts), so the 15-minute payment window and the
// 10-minute appeal wait pass at once instead of in real time.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USERNAME, photo } from './admin-seed.ts';
import { call, startP2pScenario, type P2pScenario, type P2pUser } from './p2p-seed.ts';
import { launchBrowser, newContext } from './support/browser.ts';
import { ServerClock } from './support/clock.ts';
import { FairexPage } from './support/fairex-page.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';
import zh from '../packages/web/src/i18n/locales/zh.json' with { type: 'json' };

const LIVE = { timeout: 15_000 };

async function signedIn(
  browser: Browser,
  user: P2pUser,
  width: number,
  height = 900,
): Promise<BrowserContext> {
  const context = await newContext(browser, { width, height });
  await ServerClock.follow(context);
  await context.addInitScript(
    ({ token, account, id }) => {
      if (localStorage.getItem('token') === null) {
        localStorage.setItem('token', token);
        localStorage.setItem('accountNum', account);
        localStorage.setItem('user_id', String(id));
        localStorage.setItem('is_seller', '0');
      }
    },
    { token: user.token, account: user.account, id: user.id },
  );
  return context;
}

function room(page: Page, status: string) {
  return page.locator(`[data-testid="p2p-order-room"][data-status="${status}"]`);
}

async function usdtBalance(baseURL: string, user: P2pUser): Promise<string> {
  const detail = await call<{ balance: string }>(baseURL, '/wallet/detail', user.token, {
    type: 'change',
    currency: 3,
  });
  return detail.balance;
}

describe('P2P fiat trade', () => {
  let scenario: P2pScenario;
  let browser: Browser;
  let merchant: FairexPage;
  let buyer: FairexPage;
  let secondBuyer: FairexPage;
  let admin: Page;
  const contexts = () => [merchant.page.context(), buyer.page.context(), secondBuyer.page.context()];

  beforeAll(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'fairex-p2p-e2e-'));
    scenario = await startP2pScenario(dataDir);
    browser = await launchBrowser();
    merchant = await FairexPage.open(
      await signedIn(browser, scenario.merchant, 1440),
      scenario.server.baseURL,
      '/myLegalShops',
    );
    buyer = await FairexPage.open(
      await signedIn(browser, scenario.buyer, 390, 844),
      scenario.server.baseURL,
      '/fiatradCenter',
    );
    secondBuyer = await FairexPage.open(
      await signedIn(browser, scenario.secondBuyer, 1280),
      scenario.server.baseURL,
      '/fiatradCenter',
    );
    admin = await (await newContext(browser, { width: 1440, height: 900 })).newPage();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await scenario?.server.stop();
  });

  it('approves a merchant in the back office, and the shop appears live', async () => {
    const page = merchant.page;
    await page.getByTestId('p2p-apply').waitFor();
    await page.getByTestId('p2p-req-accountAge').filter({ hasText: 'yours: 30' }).waitFor();
    await page.getByTestId('p2p-apply-nickname').fill('Harbour OTC');
    await page.getByTestId('p2p-apply-submit').click();
    await page.getByTestId('p2p-apply-pending').waitFor(LIVE);
    expect(await page.getByTestId('p2p-tab-shop').count()).toBe(0);

    await admin.goto(`${scenario.server.baseURL}/admin`);
    await admin.waitForURL('**/admin/login');
    await admin.getByTestId('admin-login-username').fill(ADMIN_USERNAME);
    await admin.getByTestId('admin-login-password').fill(ADMIN_PASSWORD);
    await admin.getByTestId('admin-login-submit').click();
    await admin.getByTestId('admin-code-input').fill(await scenario.adminCodes.code());
    await admin.getByTestId('admin-code-submit').click();
    await admin.waitForURL('**/admin/dashboard');
    await admin.getByTestId('admin-nav-p2p').click();
    // The header names the section as the navigation does.
    await admin.locator('[data-testid^="admin-p2p-approve-"]').first().waitFor();
    expect(await admin.locator('.fx-admin-header-title').textContent()).toBe(
      await admin.getByTestId('admin-nav-p2p').textContent(),
    );
    await admin.locator('[data-testid^="admin-p2p-approve-"]').first().click();
    await admin.getByTestId('admin-p2p-review-confirm').click();
    await admin.locator('.fx-toast.is-success').first().waitFor();

    // The `seller` push: the shop's tab and the merchant's desk, with no reload.
    await page.getByTestId('p2p-tab-shop').waitFor(LIVE);
    await page.getByTestId('p2p-new-ad').waitFor(LIVE);
    expect(await page.evaluate(() => localStorage.getItem('is_seller'))).toBe('1');
    expect(merchant.problems).toEqual([]);
  }, 120_000);

  it('posts an ad; the buyer takes it, pays, the merchant releases; each side sees every step live', async () => {
    const shop = merchant.page;
    await merchant.goto('/userSetting');
    await shop.getByTestId('p2p-method-add').click();
    await shop.getByTestId('p2p-method-holder').waitFor();
    expect(await shop.getByTestId('p2p-method-holder').inputValue()).toBe(scenario.merchant.name);
    await shop.getByTestId('p2p-method-account').fill('6222021234567890');
    await shop.getByTestId('p2p-method-bank').fill('Bank of Example, Central');
    await shop.getByTestId('p2p-method-save').click();
    await shop.locator('[data-testid^="p2p-my-method-"]').first().waitFor(LIVE);

    await merchant.goto('/myLegalShops');
    await shop.getByTestId('p2p-new-ad').click();
    await shop.getByTestId('p2p-ad-price').fill('7.20');
    await shop.getByTestId('p2p-ad-total').fill('300');
    await shop.getByTestId('p2p-ad-min').fill('10');
    await shop.getByTestId('p2p-ad-max').fill('2000');
    await shop.locator('[data-testid^="p2p-ad-method-"]').first().click();
    await shop.getByTestId('p2p-ad-submit').click();
    await shop.locator('[data-testid^="p2p-my-ad-"]').first().waitFor(LIVE);
    // A sell ad escrows its total when posted.
    expect(await usdtBalance(scenario.server.baseURL, scenario.merchant)).toBe('9700.000000');

    // The merchant watches the orders list while the buyer takes the ad.
    await merchant.goto('/legalTrade');
    // No order yet: the empty list's note is drawn at its own size (its styles come with it, not with the
    // spot page's, which this page never loads).
    const emptyImage = shop.locator('.fx-empty-image');
    await emptyImage.waitFor(LIVE);
    expect((await emptyImage.boundingBox())?.height).toBeLessThanOrEqual(40);
    await buyer.goto('/fiatradCenter');
    const card = buyer.page.locator('article.fx-p2p-ad').filter({ hasText: 'Harbour OTC' });
    await card.waitFor(LIVE);
    // The ad book fits a phone's width.
    expect(await buyer.scrollWidth()).toBeLessThanOrEqual(390);
    await buyer.screenshot('p2p-book-phone');
    await card.locator('[data-testid^="p2p-take-"]').click();
    await buyer.page.getByTestId('p2p-take-input').fill('720');
    expect(await buyer.page.getByTestId('p2p-take-result').textContent()).toBe('You receive 100.000000 USDT');
    await buyer.page.getByTestId('p2p-take-confirm').click();
    await room(buyer.page, 'unpaid').waitFor(LIVE);
    const orderId = Number(new URL(buyer.page.url()).searchParams.get('order'));
    expect(orderId).toBeGreaterThan(0);
    expect(await buyer.page.getByTestId('p2p-pay-holder').textContent()).toBe(scenario.merchant.name);
    expect(await buyer.page.getByTestId('p2p-countdown').textContent()).toMatch(/1[45]:\d\d/);
    expect(await buyer.scrollWidth()).toBeLessThanOrEqual(390);
    await buyer.screenshot('p2p-room-buyer-phone');

    await shop.getByTestId(`p2p-order-${orderId}`).click(LIVE);
    await room(shop, 'unpaid').waitFor(LIVE);

    await buyer.page.getByTestId('p2p-chat-input').fill('Paying by bank transfer now');
    await buyer.page.getByTestId('p2p-chat-send').click();
    await shop.getByTestId('p2p-chat-list').getByText('Paying by bank transfer now').waitFor(LIVE);
    await shop.getByTestId('p2p-chat-file').setInputFiles({
      name: 'receipt.png',
      mimeType: 'image/png',
      buffer: photo([240, 180, 40]),
    });
    await buyer.page.locator('[data-testid="p2p-chat-list"] img.fx-p2p-chat-image').first().waitFor(LIVE);

    await buyer.page.getByTestId('p2p-paid').click();
    await buyer.page.getByTestId('p2p-paid-confirm').click();
    await room(buyer.page, 'paid').waitFor(LIVE);
    await room(shop, 'paid').waitFor(LIVE);
    expect(await buyer.page.getByTestId('p2p-release').count()).toBe(0);

    await shop.getByTestId('p2p-release').click();
    await shop.getByTestId('p2p-release-code').fill(await scenario.merchantCodes.code());
    await shop.getByTestId('p2p-release-confirm').click();
    await room(shop, 'completed').waitFor(LIVE);
    await room(buyer.page, 'completed').waitFor(LIVE);
    expect(await buyer.page.getByTestId('p2p-order-end').textContent()).toContain(
      'The seller released the coins.',
    );
    expect(await usdtBalance(scenario.server.baseURL, scenario.buyer)).toBe('100.000000');

    // Each side rates the other once; the second to rate sees the first one's rating.
    const rate = buyer.page.getByTestId('p2p-feedback');
    await rate.getByText('Positive', { exact: true }).click();
    await rate.getByTestId('p2p-feedback-comment').fill('Released within minutes.');
    await rate.getByTestId('p2p-feedback-submit').click();
    await buyer.page.getByTestId('p2p-feedback-mine').waitFor(LIVE);
    expect(await buyer.page.getByTestId('p2p-feedback-mine').textContent()).toContain('Positive');
    const merchantRate = shop.getByTestId('p2p-feedback');
    await merchantRate.getByText('Positive', { exact: true }).click();
    await merchantRate.getByTestId('p2p-feedback-submit').click();
    await shop.getByTestId('p2p-feedback-mine').waitFor(LIVE);
    expect(await shop.getByTestId('p2p-feedback-theirs').textContent()).toContain('Released within minutes.');
    await buyer.screenshot('p2p-room-buyer-completed-phone');
    await merchant.screenshot('p2p-room-merchant-completed');
    expect(merchant.problems).toEqual([]);
    expect(buyer.problems).toEqual([]);
  }, 180_000);

  it('cancels an unpaid order when its payment window ends, for both parties', async () => {
    const shop = merchant.page;
    await secondBuyer.goto('/fiatradCenter');
    const card = secondBuyer.page.locator('article.fx-p2p-ad').filter({ hasText: 'Harbour OTC' });
    await card.getByText('Available 200.000000 USDT').waitFor(LIVE);
    await card.locator('[data-testid^="p2p-take-"]').click();
    await secondBuyer.page.getByTestId('p2p-take-input').fill('72');
    await secondBuyer.page.getByTestId('p2p-take-confirm').click();
    await room(secondBuyer.page, 'unpaid').waitFor(LIVE);
    const orderId = Number(new URL(secondBuyer.page.url()).searchParams.get('order'));
    await merchant.goto(`/legalTrade?order=${orderId}`);
    await room(shop, 'unpaid').waitFor(LIVE);

    // The 15-minute window passes (the server's clock is moved past its end); the scheduler's tick cancels
    // the unpaid order within about a second, and both rooms show it without a reload.
    await scenario.clock.advance(15 * 60_000 + 2_000, contexts());
    await room(secondBuyer.page, 'cancelled').waitFor(LIVE);
    await room(shop, 'cancelled').waitFor(LIVE);
    expect(await secondBuyer.page.getByTestId('p2p-order-end').textContent()).toContain(
      'payment window ended',
    );
    // The escrow went back to the ad, and the timeout counts as the buyer's cancellation.
    await secondBuyer.goto('/fiatradCenter');
    await card.getByText('Available 200.000000 USDT').waitFor(LIVE);
    await secondBuyer.goto('/legalTrade');
    await secondBuyer.page
      .getByTestId('p2p-counters')
      .filter({ hasText: 'Cancellations today: 1 of 3' })
      .waitFor(LIVE);
    expect(secondBuyer.problems).toEqual([]);
  }, 180_000);

  it('decides an appealed order in the back office, with both parties watching', async () => {
    const shop = merchant.page;
    await buyer.goto('/fiatradCenter');
    const card = buyer.page.locator('article.fx-p2p-ad').filter({ hasText: 'Harbour OTC' });
    await card.locator('[data-testid^="p2p-take-"]').click(LIVE);
    await buyer.page.getByTestId('p2p-take-input').fill('144');
    await buyer.page.getByTestId('p2p-take-confirm').click();
    await room(buyer.page, 'unpaid').waitFor(LIVE);
    const orderId = Number(new URL(buyer.page.url()).searchParams.get('order'));
    await merchant.goto(`/legalTrade?order=${orderId}`);
    await buyer.page.getByTestId('p2p-paid').click();
    await buyer.page.getByTestId('p2p-paid-confirm').click();
    await room(shop, 'paid').waitFor(LIVE);
    // The appeal opens only after the disclosed wait (10 minutes); the page says when.
    await buyer.page
      .getByTestId('p2p-appeal-wait')
      .filter({ hasText: /Appeal possible in (09|10):\d\d/ })
      .waitFor(LIVE);
    expect(await buyer.page.getByTestId('p2p-appeal').count()).toBe(0);
    await scenario.clock.advance(10 * 60_000 + 2_000, contexts());

    // Each side is offered the reasons of its side: the buyer "paid, not released", the seller "payment not
    // received" (both in English and Chinese, on a phone and on a desktop).
    const offered = async (party: FairexPage, shot: string): Promise<string[]> => {
      await party.page.getByTestId('p2p-appeal').click(LIVE);
      await party.page.getByTestId('p2p-appeal-reason').click();
      const options = party.page.locator('.ant-select-dropdown:visible .ant-select-item-option');
      await options.first().waitFor(LIVE);
      await party.screenshot(shot, false);
      expect(await party.scrollWidth()).toBeLessThanOrEqual(party.page.viewportSize()?.width ?? 0);
      const texts = await options.allInnerTexts();
      await party.page.keyboard.press('Escape');
      return texts;
    };
    const closeDialog = async (party: FairexPage) => {
      await party.page.locator('.ant-modal-wrap:visible .ant-modal-close').click();
      await party.page.locator('.ant-modal-wrap').first().waitFor({ state: 'hidden' });
    };
    expect(await offered(buyer, 'p2p-appeal-buyer-390-en')).toEqual([
      'I paid, but the seller has not released the coins',
      'The amount paid does not match the order',
      'Other',
    ]);
    await closeDialog(buyer);
    await buyer.chooseLanguage('zh');
    expect(await offered(buyer, 'p2p-appeal-buyer-390-zh')).toEqual([
      zh.p2p.appeal.reasons.not_released,
      zh.p2p.appeal.reasons.wrong_amount,
      zh.p2p.appeal.reasons.other,
    ]);
    await closeDialog(buyer);
    await buyer.chooseLanguage('en');
    await room(buyer.page, 'paid').waitFor(LIVE);
    await merchant.chooseLanguage('zh');
    expect(await offered(merchant, 'p2p-appeal-seller-1440-zh')).toEqual([
      zh.p2p.appeal.reasons.not_received,
      zh.p2p.appeal.reasons.wrong_amount,
      zh.p2p.appeal.reasons.other,
    ]);
    await closeDialog(merchant);
    await merchant.chooseLanguage('en');
    expect(await offered(merchant, 'p2p-appeal-seller-1440-en')).toEqual([
      "I have not received the buyer's payment",
      'The amount paid does not match the order',
      'Other',
    ]);

    // The seller appeals with the first of its reasons: the payment has not arrived.
    await shop
      .getByTestId('p2p-appeal-description')
      .fill('The buyer marked 144.00 CNY paid; nothing has arrived in my bank account.');
    await shop.getByTestId('p2p-appeal-file').setInputFiles({
      name: 'statement.png',
      mimeType: 'image/png',
      buffer: photo([30, 140, 220]),
    });
    await shop.locator('.fx-p2p-evidence img').first().waitFor(LIVE);
    await shop.getByTestId('p2p-appeal-submit').click();
    await room(buyer.page, 'appealed').waitFor(LIVE);
    await room(shop, 'appealed').waitFor(LIVE);

    await admin.getByTestId('admin-nav-p2p').click();
    await admin.getByTestId('admin-p2p-tab-appeals').click();
    await admin.getByTestId(`admin-p2p-order-${orderId}`).click(LIVE);
    const evidence = admin.getByTestId('admin-p2p-evidence');
    await evidence.getByText('nothing has arrived in my bank account').waitFor(LIVE);
    // The back office tags the appeal by its actual reason.
    await admin.locator('.ant-card .ant-tag').filter({ hasText: 'Payment not received' }).waitFor(LIVE);
    await admin.locator('.fx-admin-evidence-image').first().waitFor(LIVE);
    await admin.screenshot({ path: join(SCREENSHOT_DIR, 'p2p-admin-appeal.png') });
    await admin.getByTestId('admin-p2p-to-buyer').click();
    await admin.getByTestId('admin-p2p-decide-reason').fill('The bank statement shows the payment arrived.');
    await admin.getByTestId('admin-p2p-decide-code').fill(await scenario.adminCodes.code());
    await admin.getByTestId('admin-p2p-decide-submit').click();
    await admin.getByTestId('admin-p2p-order-status').filter({ hasText: 'Completed' }).waitFor(LIVE);

    await room(buyer.page, 'completed').waitFor(LIVE);
    await room(shop, 'completed').waitFor(LIVE);
    expect(await buyer.page.getByTestId('p2p-order-end').textContent()).toContain('for the buyer');
    expect(await usdtBalance(scenario.server.baseURL, scenario.buyer)).toBe('120.000000');
    expect(buyer.problems).toEqual([]);
    expect(merchant.problems).toEqual([]);
  }, 180_000);
});
