// The application shell in real Chromium against the real server: languages, night mode, the 404
// and success pages, the route guard and template hash links.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import en from '../packages/web/src/i18n/locales/en.json' with { type: 'json' };
import zh from '../packages/web/src/i18n/locales/zh.json' with { type: 'json' };
import hk from '../packages/web/src/i18n/locales/hk.json' with { type: 'json' };
import kr from '../packages/web/src/i18n/locales/kr.json' with { type: 'json' };
import jp from '../packages/web/src/i18n/locales/jp.json' with { type: 'json' };
import { launchBrowser, newContext } from './support/browser.ts';
import { FairexPage } from './support/fairex-page.ts';

const MESSAGES = { en, zh, hk, kr, jp };
const LOCALE_TAGS = { en: 'en-US', zh: 'zh-CN', hk: 'zh-HK', kr: 'ko-KR', jp: 'ja-JP' } as const;

describe('application shell', () => {
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
    // Every page the test opened must have run without errors in the console.
    expect(fairex?.problems ?? []).toEqual([]);
    fairex = null;
    await context.close();
  });

  it('opens the landing page with header, hero and footer', async () => {
    fairex = await FairexPage.open(context, baseURL, '/');
    const page = fairex.page;
    await page.getByTestId('home').waitFor();
    expect(await page.title()).toBe('Fairex');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toContain(en.home.titleLead);
    expect(await fairex.navLink('spot').innerText()).toBe(en.nav.spot);
    expect(await page.getByTestId('copyright').innerText()).toContain('Fairex');
    expect(await fairex.theme()).toBe('day');
    await fairex.screenshot('home-en-day');
  });

  it('shows a placeholder, never a blank page, while the code is still on its way', async () => {
    const page = await context.newPage();
    // Hold every script for a while, as a slow connection does.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/*.js', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${baseURL}/`, { waitUntil: 'commit' });
    const placeholder = page.getByTestId('boot-placeholder');
    await placeholder.waitFor();
    expect(await placeholder.innerText()).toContain('Fairex');
    expect((await placeholder.boundingBox())?.height ?? 0).toBeGreaterThan(100);
    release();
    await page.getByTestId('home').waitFor();
    expect(await placeholder.count()).toBe(0);
    await page.close();
  });

  it('switches through the five languages with the header dropdown', async () => {
    fairex = await FairexPage.open(context, baseURL, '/');
    for (const language of ['zh', 'hk', 'kr', 'jp', 'en'] as const) {
      await fairex.chooseLanguage(language);
      const messages = MESSAGES[language];
      expect(await fairex.navLink('spot').innerText()).toBe(messages.nav.spot);
      expect(await fairex.navLink('leverage').innerText()).toBe(messages.nav.leverage);
      expect(await fairex.page.getByTestId('login-link').innerText()).toBe(messages.header.login);
      expect(await fairex.documentLanguage()).toBe(LOCALE_TAGS[language]);
      expect(await fairex.stored('lang')).toBe(language);
      expect(await fairex.stored('locale')).toBe(LOCALE_TAGS[language]);
      // The longest labels must still fit beside the buttons at the narrowest width that shows them.
      await fairex.page.setViewportSize({ width: 1080, height: 900 });
      expect(await fairex.headerCrowded()).toBe(false);
      await fairex.page.setViewportSize({ width: 1440, height: 900 });
      if (language === 'zh') await fairex.screenshot('home-zh-day');
    }
  });

  it('keeps night mode after a reload', async () => {
    fairex = await FairexPage.open(context, baseURL, '/');
    const dayBackground = await fairex.pageBackground();
    await fairex.toggleNightMode();
    expect(await fairex.theme()).toBe('night');
    expect(await fairex.stored('night_mode')).toBe('1');
    await fairex.reload();
    expect(await fairex.theme()).toBe('night');
    const nightBackground = await fairex.pageBackground();
    expect(nightBackground).not.toBe(dayBackground);
    expect(nightBackground).toBe('rgb(11, 14, 20)');
    await fairex.screenshot('home-en-night');
    await fairex.toggleNightMode();
    await fairex.reload();
    expect(await fairex.theme()).toBe('day');
  });

  it('shows the translated 404 page for an unknown path', async () => {
    fairex = await FairexPage.open(context, baseURL, '/no/such/page');
    const notFound = fairex.page.getByTestId('not-found');
    await notFound.waitFor();
    expect(await notFound.innerText()).toContain(en.notFound.title);
    await fairex.chooseLanguage('jp');
    expect(await fairex.page.getByTestId('not-found').innerText()).toContain(jp.notFound.title);
    await fairex.screenshot('not-found-jp');
  });

  it('shows the translated success page for a known action and the generic one otherwise', async () => {
    fairex = await FairexPage.open(context, baseURL, '/success?what=withdrawal');
    const page = fairex.page.getByTestId('success-page');
    await page.waitFor();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(en.success.title.withdrawal);
    expect(await page.innerText()).toContain(en.success.description.withdrawal);
    expect(await fairex.page.getByTestId('success-record').getAttribute('href')).toBe(
      '/chargeRecord?tab=withdrawals',
    );
    expect(await fairex.page.title()).toBe(`${en.routes.success} · Fairex`);
    await fairex.screenshot('success-en-day');
    await fairex.toggleNightMode();
    expect(await fairex.theme()).toBe('night');
    await fairex.screenshot('success-en-night');
    await fairex.toggleNightMode();

    await fairex.goto('/success?what=%3Cscript%3Eno%3C%2Fscript%3E');
    await fairex.page.getByTestId('success-page').waitFor();
    expect(await fairex.page.getByRole('heading', { level: 1 }).innerText()).toBe(en.success.title.done);
    expect(await fairex.page.getByTestId('success-page').innerText()).not.toContain('script');
    expect(await fairex.page.getByTestId('success-record').count()).toBe(0);

    await fairex.goto('/success?what=p2pOrder');
    await fairex.chooseLanguage('kr');
    const translated = fairex.page.getByTestId('success-page');
    await translated.waitFor();
    expect(await translated.getByRole('heading', { level: 1 }).innerText()).toBe(kr.success.title.p2pOrder);
    await fairex.screenshot('success-kr-day');
    await fairex.chooseLanguage('en');
  });

  it('sends a visitor at a guarded route to the login prompt', async () => {
    fairex = await FairexPage.open(context, baseURL, '/accountSet');
    await fairex.page.getByTestId('home').waitFor();
    expect(fairex.location()).toBe('/?login=1&redirect=%2FaccountSet');
    await fairex.page.getByText(en.auth.loginRequired).waitFor();

    await fairex.goto('/new_account');
    await fairex.page.getByTestId('home').waitFor();
    expect(fairex.location()).toBe('/?login=1&redirect=%2Fnew_account');
  });

  it('follows a template hash link to the route it names', async () => {
    fairex = await FairexPage.open(context, baseURL, '/#/components/register?extension_code=ABC123');
    await fairex.page.getByTestId('register-page').waitFor();
    expect(fairex.location()).toBe('/components/register?extension_code=ABC123');
  });

  it('fits a phone screen, with the navigation in a drawer', async () => {
    await context.close();
    context = await newContext(browser, { width: 390, height: 844 });
    fairex = await FairexPage.open(context, baseURL, '/');
    expect(await fairex.navLink('spot').isVisible()).toBe(false);
    expect(await fairex.scrollWidth()).toBeLessThanOrEqual(390);
    await fairex.screenshot('home-en-mobile');
    await fairex.page.getByTestId('mobile-menu-trigger').click();
    const drawerLink = fairex.page.locator('.fx-drawer-link', { hasText: en.nav.ico });
    await drawerLink.waitFor();
    await fairex.screenshot('home-en-mobile-menu', false);
    await drawerLink.click();
    await fairex.page.getByTestId('ico-page').waitFor();
    expect(fairex.location()).toBe('/ico');
  });
});
