// A page object for the application shell: what a test does with the header, the footer and the
// status pages, in the words of the product rather than of selectors.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { Language } from '@fairex/shared/languages.ts';
import { SCREENSHOT_DIR } from './paths.ts';

/**
 * The browser globals that `page.evaluate` callbacks use. The callbacks run in the page, but they are
 * type-checked with the Node configuration, which has no DOM library.
 */
export interface InPage {
  document: {
    documentElement: { dataset: Record<string, string | undefined>; lang: string; scrollWidth: number };
    body: object;
    querySelector(selector: string): object | null;
    fonts: { ready: Promise<unknown> };
  };
  getComputedStyle(element: object): { backgroundColor: string };
}

export class FairexPage {
  readonly page: Page;
  readonly baseURL: string;
  /** Errors the page logged or threw; a test asserts there are none. */
  readonly problems: string[] = [];

  constructor(page: Page, baseURL: string) {
    this.page = page;
    this.baseURL = baseURL;
    page.on('pageerror', (error) => this.problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') this.problems.push(`console error: ${message.text()}`);
    });
  }

  static async open(context: BrowserContext, baseURL: string, path = '/'): Promise<FairexPage> {
    const fairex = new FairexPage(await context.newPage(), baseURL);
    await fairex.goto(path);
    return fairex;
  }

  async goto(path: string): Promise<void> {
    await this.page.goto(`${this.baseURL}${path}`);
    await this.header.waitFor();
  }

  async reload(): Promise<void> {
    await this.page.reload();
    await this.header.waitFor();
  }

  get header(): Locator {
    return this.page.getByTestId('header');
  }

  navLink(key: 'home' | 'markets' | 'spot' | 'leverage' | 'seconds' | 'ico' | 'mining' | 'defi'): Locator {
    return this.page.getByTestId(`nav-${key}`);
  }

  /** The path and query the browser shows. */
  location(): string {
    const url = new URL(this.page.url());
    return `${url.pathname}${url.search}${url.hash}`;
  }

  /** Picks a language in the header's dropdown and waits for the page to reload in it. */
  async chooseLanguage(language: Language): Promise<void> {
    await this.page.getByTestId('language-trigger').click();
    const option = this.page.getByTestId(`language-option-${language}`);
    await option.waitFor();
    await settled(option);
    // The reloaded document is enough; its images and sockets need not have settled.
    await Promise.all([this.page.waitForEvent('domcontentloaded'), option.click()]);
    await this.header.waitFor();
  }

  async toggleNightMode(): Promise<void> {
    await this.page.getByTestId('night-toggle').click();
  }

  /** 'night' or 'day', as the root element says. */
  async theme(): Promise<string | undefined> {
    return this.page.evaluate(() => (globalThis as unknown as InPage).document.documentElement.dataset.theme);
  }

  async documentLanguage(): Promise<string> {
    return this.page.evaluate(() => (globalThis as unknown as InPage).document.documentElement.lang);
  }

  async pageBackground(): Promise<string> {
    return this.page.evaluate(() => {
      const { document, getComputedStyle } = globalThis as unknown as InPage;
      return getComputedStyle(document.querySelector('.fx-shell') ?? document.body).backgroundColor;
    });
  }

  async stored(key: string): Promise<string | null> {
    return this.page.evaluate((name) => localStorage.getItem(name), key);
  }

  /** True when the main navigation runs into the header's buttons (too long labels for the width). */
  async headerCrowded(): Promise<boolean> {
    const nav = await this.page.locator('.fx-nav').boundingBox();
    const actions = await this.page.locator('.fx-header-actions').boundingBox();
    if (nav === null || actions === null) return false;
    const navEnd = await this.page
      .locator('.fx-nav-link')
      .last()
      .boundingBox()
      .then((box) => (box === null ? nav.x : box.x + box.width));
    return navEnd > actions.x;
  }

  /** The document's width; wider than the viewport means the page scrolls sideways. */
  async scrollWidth(): Promise<number> {
    return this.page.evaluate(() => (globalThis as unknown as InPage).document.documentElement.scrollWidth);
  }

  async screenshot(name: string, fullPage = true): Promise<string> {
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    const path = join(SCREENSHOT_DIR, `${name}.png`);
    // Let fonts and the entry animation of antd components settle.
    await this.page.evaluate(() => (globalThis as unknown as InPage).document.fonts.ready);
    await this.page.waitForTimeout(300);
    await this.page.screenshot({ path, fullPage });
    return path;
  }
}

interface Animated {
  closest(selector: string): Animated | null;
  getAnimations(options: { subtree: boolean }): { finished: Promise<unknown> }[];
}

/**
 * Waits until the popup holding `element` has finished its opening animation. The header's menu slides and
 * scales in; on a loaded machine Playwright can find its box stable between two slow frames and then send
 * the click to a point the option has since left, a click on the menu's padding that changes nothing.
 */
async function settled(element: Locator): Promise<void> {
  await element.evaluate(async (node) => {
    const popup = (node as unknown as Animated).closest('.fx-header-menu') ?? (node as unknown as Animated);
    await Promise.all(popup.getAnimations({ subtree: true }).map((animation) => animation.finished));
  });
}
