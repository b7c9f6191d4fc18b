// The home page in real Chromium against the real server: the statistics count up to the figures the
// server reports once scrolled into view, the FAQ opens one answer at a time, the footer's news links
// open their pages, and the page looks finished in all five languages and at night.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import en from '../packages/web/src/i18n/locales/en.json' with { type: 'json' };
import { launchBrowser, newContext } from './support/browser.ts';
import { FairexPage } from './support/fairex-page.ts';

interface Figures {
  /** null: counted over fewer than 20 accounts, shown as "fewer than 20". */
  users: number | null;
  trades_24h: number | null;
  markets: number;
}

async function serverFigures(page: Page, baseURL: string): Promise<Figures> {
  const response = await page.request.get(`${baseURL}/api/stats/home`);
  const body = (await response.json()) as { type: string; message: Figures };
  expect(body.type).toBe('ok');
  return body.message;
}

async function statValue(page: Page, key: 'users' | 'trades24h' | 'markets'): Promise<number> {
  const text = await page.getByTestId(`stat-${key}`).innerText();
  return Number(text.replace(/[^\d]/g, ''));
}

/** Waits until every content section of the home page has loaded, so that screenshots are complete. */
async function homeLoaded(page: Page): Promise<void> {
  await page.getByTestId('home').waitFor();
  await page.getByTestId('faq').waitFor();
  await page.getByTestId('commitments').waitFor();
  await page.getByTestId('built-with').waitFor();
  await page.getByTestId('home-headline').waitFor();
  await page.getByTestId('footer-news-link').first().waitFor();
}

/** Scrolls the statistics into view and waits for the count to finish. */
async function countStatistics(page: Page): Promise<void> {
  await page.getByTestId('home-stats').scrollIntoViewIfNeeded();
  await page.locator('[data-testid="home-stats"][data-counting="done"]').waitFor({ timeout: 15_000 });
}

describe('home page', () => {
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
    context = await newContext(browser, { width: 1440, height: 760 });
  });

  afterEach(async () => {
    expect(fairex?.problems ?? []).toEqual([]);
    fairex = null;
    await context.close();
  });

  it('counts the statistics up to the figures the server reports once they scroll into view', async () => {
    fairex = await FairexPage.open(context, baseURL, '/');
    const page = fairex.page;
    await page.getByTestId('home-stats').waitFor({ state: 'attached' });
    const figures = await serverFigures(page, baseURL);
    // Below the fold nothing has started: every figure stands at zero.
    await page.waitForTimeout(1_500);
    expect(await page.getByTestId('home-stats').getAttribute('data-counting')).toBe('waiting');
    expect(await statValue(page, 'markets')).toBe(0);

    await page.getByTestId('home-stats').scrollIntoViewIfNeeded();
    const seen: number[] = [];
    const deadline = Date.now() + 12_000;
    while (Date.now() < deadline) {
      seen.push(await statValue(page, 'markets'));
      if ((await page.getByTestId('home-stats').getAttribute('data-counting')) === 'done') break;
      await page.waitForTimeout(120);
    }
    // The count climbs through values in between, never down, and stops on the server's figure.
    expect(seen.length).toBeGreaterThan(5);
    for (let index = 1; index < seen.length; index += 1)
      expect(seen[index]).toBeGreaterThanOrEqual(seen[index - 1] ?? 0);
    expect(seen.some((value) => value > 0 && value < figures.markets)).toBe(true);
    expect(await statValue(page, 'markets')).toBe(figures.markets);
    // A figure over fewer than 20 accounts is withheld by the server and reads "fewer than 20".
    for (const [key, value] of [
      ['users', figures.users],
      ['trades24h', figures.trades_24h],
    ] as const) {
      if (value === null)
        expect((await page.getByTestId(`stat-${key}`).innerText()).trim()).toBe('fewer than 20');
      else expect(await statValue(page, key)).toBe(value);
    }
    expect(figures.markets).toBeGreaterThan(0);
  });

  it('opens one FAQ answer at a time', async () => {
    fairex = await FairexPage.open(context, baseURL, '/');
    const page = fairex.page;
    const questions = page.getByTestId('faq-question');
    await questions.first().waitFor();
    expect(await questions.count()).toBeGreaterThan(2);
    await questions.nth(0).click();
    await page.locator('.fx-home-faq .ant-collapse-item-active').first().waitFor();
    expect(await page.locator('.fx-home-faq .ant-collapse-item-active').count()).toBe(1);
    const second = await questions.nth(1).innerText();
    await questions.nth(1).click();
    await page.waitForFunction(() => {
      const active = (
        globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }
      ).document.querySelectorAll('.fx-home-faq .ant-collapse-item-active');
      return active.length === 1;
    });
    expect(await page.locator('.fx-home-faq .ant-collapse-item-active').innerText()).toContain(second);
    await page.getByTestId('faq-answer').last().waitFor();
    expect(
      await page.locator('.fx-home-faq .ant-collapse-item-active [data-testid="faq-answer"]').innerText(),
    ).not.toBe('');
  });

  it('opens the news pages from the footer links', async () => {
    fairex = await FairexPage.open(context, baseURL, '/');
    const page = fairex.page;
    const columns = page.getByTestId('footer-news-column');
    await columns.first().waitFor();
    expect(await columns.count()).toBe(5);
    const links = page.getByTestId('footer-news-link');
    const count = await links.count();
    expect(count).toBeGreaterThanOrEqual(10);
    for (const index of [0, count - 1]) {
      const link = links.nth(index);
      const title = await link.innerText();
      await link.click();
      await page.getByTestId('notice-detail').waitFor();
      expect(fairex.location()).toMatch(/^\/components\/noticeDetail\?id=\d+$/);
      await page.getByTestId('news-title').waitFor();
      expect(await page.getByTestId('news-title').innerText()).toBe(title);
      expect((await page.getByTestId('news-content').innerText()).length).toBeGreaterThan(80);
      await page.goto(`${baseURL}/`);
      await page.getByTestId('footer-news-link').first().waitFor();
    }
  });

  it('looks finished in the five languages and at night', async () => {
    fairex = await FairexPage.open(context, baseURL, '/');
    await fairex.page.setViewportSize({ width: 1440, height: 900 });
    for (const language of ['en', 'zh', 'hk', 'kr', 'jp'] as const) {
      if (language !== 'en') await fairex.chooseLanguage(language);
      await homeLoaded(fairex.page);
      await countStatistics(fairex.page);
      expect(await fairex.scrollWidth()).toBeLessThanOrEqual(1440);
      await fairex.page.evaluate(() =>
        (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0),
      );
      await fairex.screenshot(`home-${language}-day-full`);
    }
    await fairex.chooseLanguage('en');
    await fairex.toggleNightMode();
    await homeLoaded(fairex.page);
    await countStatistics(fairex.page);
    await fairex.page.evaluate(() =>
      (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0),
    );
    await fairex.screenshot('home-en-night-full');
    await fairex.chooseLanguage('zh');
    await homeLoaded(fairex.page);
    await countStatistics(fairex.page);
    await fairex.page.evaluate(() =>
      (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0),
    );
    await fairex.screenshot('home-zh-night-full');
    expect(await fairex.page.getByRole('heading', { level: 1 }).innerText()).not.toContain(en.home.titleLead);
  });

  it('fits a phone screen', async () => {
    await context.close();
    context = await newContext(browser, { width: 390, height: 844 });
    fairex = await FairexPage.open(context, baseURL, '/');
    await homeLoaded(fairex.page);
    await countStatistics(fairex.page);
    expect(await fairex.scrollWidth()).toBeLessThanOrEqual(390);
    // The ticker's connection badge sits below the hero's news line, not over it.
    const headline = await fairex.page.getByTestId('home-headline').boundingBox();
    const badge = await fairex.page.getByTestId('home-ticker').getByTestId('connection-status').boundingBox();
    expect(badge!.y).toBeGreaterThanOrEqual(headline!.y + headline!.height);
    await fairex.screenshot('home-en-mobile-full');
  });
});
