// News pages in real Chromium against the real server: the notice list, a notice that loads another in
// place when its id changes, back, the item detail page, and the seeded pages in another language.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser, newContext } from './support/browser.ts';
import { FairexPage } from './support/fairex-page.ts';

describe('news pages', () => {
  const baseURL = inject('baseURL');
  let browser: Browser;
  let context: BrowserContext;
  let fairex: FairexPage | null = null;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  beforeEach(async () => {
    context = await newContext(browser);
  });

  afterEach(async () => {
    expect(fairex?.problems ?? []).toEqual([]);
    fairex = null;
    await context.close();
  });

  it('lists the notices and opens one, which loads another in place when its id changes', async () => {
    fairex = await FairexPage.open(context, baseURL, '/noticeList');
    const page = fairex.page;
    const rows = page.getByTestId('notice-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBeGreaterThanOrEqual(3);
    await fairex.screenshot('notice-list-en');

    // The home news item links to the notice on prices inside its content.
    await page.goto(`${baseURL}/`);
    await page.getByTestId('home-headline').click();
    await page.getByTestId('news-title').waitFor();
    const firstTitle = await page.getByTestId('news-title').innerText();
    const firstLocation = fairex.location();
    const inner = page.getByTestId('news-content').locator('a[href^="/components/noticeDetail?id="]').first();
    await inner.waitFor();
    const innerHref = await inner.getAttribute('href');
    await inner.click();
    await page.waitForURL((url) => `${url.pathname}${url.search}` === innerHref);
    await page.waitForFunction(
      (title) =>
        (
          globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }
        ).document.querySelector('[data-testid="news-title"]')?.textContent !== title,
      firstTitle,
    );
    expect(await page.getByTestId('news-title').innerText()).not.toBe(firstTitle);
    await fairex.screenshot('notice-detail-en');

    await page.getByTestId('news-back').click();
    await page.waitForURL((url) => `${url.pathname}${url.search}` === firstLocation);
    await page.getByTestId('news-title').waitFor();
    expect(await page.getByTestId('news-title').innerText()).toBe(firstTitle);
  });

  it('shows a fee page with the exchange’s own figures, in Traditional Chinese', async () => {
    fairex = await FairexPage.open(context, baseURL, '/');
    await fairex.chooseLanguage('hk');
    const page = fairex.page;
    const feeLink = page.getByTestId('footer-news-link').filter({ hasText: '交易手續費' });
    await feeLink.waitFor();
    await feeLink.click();
    await page.getByTestId('news-content').waitFor();
    const content = await page.getByTestId('news-content').innerText();
    expect(content).toContain('BTC/USDT');
    expect(content).toContain('0.1%');
    await fairex.screenshot('notice-fees-hk');
  });

  it('shows an item detail, and says so when there is no description', async () => {
    fairex = await FairexPage.open(context, baseURL, '/itemDetail?type=currency&id=1');
    const page = fairex.page;
    await page.getByTestId('news-title').waitFor();
    expect(await page.getByTestId('news-title').innerText()).toBe('Bitcoin (BTC)');
    await fairex.goto('/itemDetail?id=abc');
    await page.getByTestId('news-empty').waitFor();
    expect(await page.getByTestId('news-empty').innerText()).toContain(
      'There is no description for this item.',
    );
  });
});
