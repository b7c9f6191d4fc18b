// Issue 21's tools for traders in real Chromium against a real server of this file's own (a user trades, so
// the chart has bars): in the account centre the user creates an API key, sees its secret once, finds it in
// the list without the secret and revokes it; on the trading page the user turns chart indicators on and
// off, and the choice survives a reload. Screenshots of both, day and night, in English and Chinese.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import en from '../packages/web/src/i18n/locales/en.json' with { type: 'json' };
import zh from '../packages/web/src/i18n/locales/zh.json' with { type: 'json' };
import { launchBrowser, newContext } from './support/browser.ts';
import { FairexPage } from './support/fairex-page.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';
import { startUserTradingServer, type TradingServer } from './support/user-trading.ts';

const LIVE_TIMEOUT_MS = 45_000;
const LOOKS = [
  { lang: 'en', night: false },
  { lang: 'en', night: true },
  { lang: 'zh', night: false },
  { lang: 'zh', night: true },
] as const;

describe('API keys and chart indicators', () => {
  let server: TradingServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startUserTradingServer();
    browser = await launchBrowser();
    await mkdir(SCREENSHOT_DIR, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function signedIn(settings: Record<string, string> = {}): Promise<BrowserContext> {
    const context = await newContext(browser);
    await context.addInitScript(
      ({ token, account, id, extra }) => {
        localStorage.setItem('token', token);
        localStorage.setItem('accountNum', account);
        localStorage.setItem('user_id', String(id));
        // Only on the first load: the flow changes language and theme itself and reloads.
        for (const [key, value] of Object.entries(extra)) {
          if (localStorage.getItem(key) === null) localStorage.setItem(key, value);
        }
      },
      { token: server.user.token, account: server.user.account, id: server.user.id, extra: settings },
    );
    return context;
  }

  it('creates a key whose secret shows once, lists it and revokes it', async () => {
    const context = await signedIn({ lang: 'en' });
    const fairex = await FairexPage.open(context, server.baseURL, '/apiKeys');
    const page = fairex.page;
    await page.getByTestId('api-keys').waitFor();
    await page.getByTestId('api-key-create').click();
    await page.getByTestId('api-key-label').fill('e2e reader');
    await page.getByTestId('api-key-scope-trade').click();
    await page.getByTestId('api-key-ips').fill('127.0.0.1');
    await page.getByTestId('api-key-create-ok').click();

    const secret = (await page.getByTestId('api-key-new-secret').textContent()) ?? '';
    const key = (await page.getByTestId('api-key-new-key').textContent()) ?? '';
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(key).toMatch(/^fx_[0-9a-f]{32}$/);
    expect(await page.getByTestId('api-key-secret-warning').textContent()).toContain(
      en.apiKeys.secretWarning,
    );
    await page.getByTestId('api-key-secret-done').click();
    await page.getByTestId('api-key-new-secret').waitFor({ state: 'detached' });

    const table = page.getByTestId('api-keys-table');
    const row = table.locator('tr', { hasText: 'e2e reader' });
    await row.waitFor();
    expect(await row.textContent()).toContain(key);
    expect(await row.textContent()).toContain('127.0.0.1');
    // The list never holds the secret, and it is not on the page once the dialog is closed.
    expect(await page.content()).not.toContain(secret);

    const id = Number(/api-key-revoke-(\d+)/.exec((await row.innerHTML()) ?? '')?.[1]);
    expect(id).toBeGreaterThan(0);
    for (const look of LOOKS) {
      await page.evaluate(
        ({ lang, night }) => {
          localStorage.setItem('lang', lang);
          localStorage.setItem('night_mode', night ? '1' : '0');
        },
        { lang: look.lang, night: look.night },
      );
      await fairex.reload();
      await page.getByTestId('api-keys-table').locator('tr', { hasText: 'e2e reader' }).waitFor();
      const title = look.lang === 'zh' ? zh.apiKeys.title : en.apiKeys.title;
      expect(await page.getByTestId('api-keys').locator('h1').textContent()).toBe(title);
      await page.waitForTimeout(300);
      await page.screenshot({
        path: join(SCREENSHOT_DIR, `api-keys-${look.lang}-${look.night ? 'night' : 'day'}.png`),
      });
    }
    await page.evaluate(() => localStorage.setItem('lang', 'en'));
    await fairex.reload();

    await page.getByTestId(`api-key-revoke-${id}`).click();
    await page.getByTestId('api-key-revoke-ok').click();
    await page.getByTestId(`api-key-revoked-${id}`).waitFor();
    expect(fairex.problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('turns indicators on and off on the trading page and keeps the choice', async () => {
    const context = await signedIn({ lang: 'en', chart_indicators: 'vol' });
    const fairex = await FairexPage.open(context, server.baseURL, '/dealCenter');
    const page = fairex.page;
    const chart = page.getByTestId('price-chart');
    await chart.and(page.locator('[data-status="ready"]')).waitFor({ timeout: LIVE_TIMEOUT_MS });
    expect(await chart.getAttribute('data-indicators')).toBe('vol');
    const canvases = () => chart.locator('canvas').count();
    const before = await canvases();

    await page.getByTestId('indicator-ma').click();
    await page.getByTestId('indicator-boll').click();
    await page.getByTestId('indicator-macd').click();
    expect(await chart.getAttribute('data-indicators')).toBe('ma,boll,vol,macd');
    expect(await page.getByTestId('indicator-macd').getAttribute('aria-pressed')).toBe('true');
    // MACD opens a second pane: more canvases in the same chart.
    await expect.poll(canvases).toBeGreaterThan(before);
    // The legend names each chosen line with its value at the latest bar (a dash while its window fills).
    const reading = (name: string) => page.locator(`[data-indicator="${name}"]`);
    await reading('MA7').waitFor();
    expect(await reading('MA7').innerText()).toMatch(/^(?:[\d,]+\.\d+|--)$/);
    expect(await reading(en.chart.legend.bollUpper).count()).toBe(1);
    expect(await reading(en.chart.legend.macdDif).count()).toBe(1);

    await page.getByTestId('indicator-boll').click();
    expect(await chart.getAttribute('data-indicators')).toBe('ma,vol,macd');
    await fairex.reload();
    await chart.and(page.locator('[data-status="ready"]')).waitFor({ timeout: LIVE_TIMEOUT_MS });
    expect(await chart.getAttribute('data-indicators')).toBe('ma,vol,macd');

    await page.getByTestId('indicator-ema').click();
    await page.getByTestId('indicator-boll').click();
    for (const look of LOOKS) {
      await page.evaluate(
        ({ lang, night }) => {
          localStorage.setItem('lang', lang);
          localStorage.setItem('night_mode', night ? '1' : '0');
        },
        { lang: look.lang, night: look.night },
      );
      await fairex.reload();
      await chart.and(page.locator('[data-status="ready"]')).waitFor({ timeout: LIVE_TIMEOUT_MS });
      const texts = look.lang === 'zh' ? zh : en;
      expect(await page.getByTestId('indicator-bar').textContent()).toContain(texts.chart.indicators);
      await reading(texts.chart.legend.bollUpper).waitFor();
      await page.waitForTimeout(500);
      await chart.screenshot({
        path: join(SCREENSHOT_DIR, `chart-indicators-${look.lang}-${look.night ? 'night' : 'day'}.png`),
      });
    }
    expect(fairex.problems).toEqual([]);
    await context.close();
  }, 180_000);
});
