// Seconds contracts in real Chromium against a real server of its own (market maker off; the simulated price
// source records a mark sample every second; heads every second so a proof is ready at once). A user funded
// through the deposit path moves USDT to the micro wallet, places an up and a down order through the confirm
// dialog, watches the countdown, receives both results as pushes, and opens the proof: the two recorded
// samples, the chain verified in the browser, and the result recomputed there. Both orders' open and expiry
// are marked on the candle chart itself while they run and once they settled. Screenshots in day and night,
// English and Chinese, go to artifacts/screenshots.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import en from '../packages/web/src/i18n/locales/en.json' with { type: 'json' };
import zh from '../packages/web/src/i18n/locales/zh.json' with { type: 'json' };
import { launchBrowser, newContext } from './support/browser.ts';
import { FairexPage } from './support/fairex-page.ts';
import { startServer } from './support/server-process.ts';
import {
  SPOT_E2E_CUSTODY_ENV,
  USDT_TRC20_DEPOSIT,
  depositThroughCustody,
  seedSpotUsers,
  type SeededUser,
} from './spot-seed.ts';

describe('seconds contracts', () => {
  let dataDir: string;
  let server: { baseURL: string; stop: () => Promise<void> };
  let browser: Browser;
  let context: BrowserContext;
  let fairex: FairexPage;
  let page: Page;
  let user: SeededUser;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'fairex-micro-e2e-'));
    [user] = (await seedSpotUsers(dataDir, 1)) as [SeededUser];
    server = await startServer(dataDir, {
      MARKET_MAKER: 'off',
      PRICE_HEAD_INTERVAL_MS: '1000',
      MICRO_RESERVE: '1000000',
      ...SPOT_E2E_CUSTODY_ENV,
    });
    await depositThroughCustody(server.baseURL, user, { ...USDT_TRC20_DEPOSIT, amount: '1000000000' });
    const moved = await fetch(`${server.baseURL}/api/wallet/change`, {
      method: 'POST',
      headers: { authorization: user.token, 'content-type': 'application/json' },
      body: JSON.stringify({ from_field: 'change', to_field: 'micro', currency_id: 3, number: '1000' }),
    });
    expect(((await moved.json()) as { type: string }).type).toBe('ok');
    browser = await launchBrowser();
    context = await newContext(browser, { width: 1600, height: 1000 });
    await context.addInitScript(
      ({ token, account, id }) => {
        localStorage.setItem('token', token);
        localStorage.setItem('accountNum', account);
        localStorage.setItem('user_id', String(id));
      },
      { token: user.token, account: user.account, id: user.id },
    );
    fairex = await FairexPage.open(context, server.baseURL, '/secondDealCenter');
    page = fairex.page;
    await page.getByTestId('micro-panel').waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function place(direction: 'up' | 'down', amount: string): Promise<void> {
    await page.getByTestId('micro-seconds-30').click();
    await page.getByTestId('micro-number').fill(amount);
    await page.getByTestId(`micro-${direction}`).click();
    const dialog = page.getByTestId('micro-confirm');
    await dialog.waitFor();
    const text = await dialog.innerText();
    expect(text).toContain(en.micro.ruleTie);
    expect(text).toContain(en.micro.ruleVoid);
    expect(text).toContain(en.micro.ruleFee.replace('{{fee}}', '1'));
    await page.getByRole('button', { name: en.micro.confirm }).click();
    await page.getByText(en.micro.placed).first().waitFor();
  }

  it('places up and down orders, counts down, pushes the results and proves them', async () => {
    await expect.poll(async () => await page.getByTestId('micro-balance').innerText()).toContain('1000');
    await place('up', '100');
    await place('down', '50');
    const running = page.getByTestId('micro-running');
    await running.waitFor();
    await expect.poll(async () => await running.locator('tbody tr').count(), { timeout: 10_000 }).toBe(2);
    const countdown = running.getByTestId('micro-countdown').first();
    const first = Number.parseFloat(await countdown.innerText());
    await page.waitForTimeout(1_500);
    const later = Number.parseFloat(await countdown.innerText());
    expect(first).toBeGreaterThan(later);
    expect(later).toBeGreaterThan(0);
    // Both orders are marked on the candle chart: the open of each drawn as a marker on its bar, and the
    // open and expiry of each listed beside the chart in words.
    const ids = await running
      .locator('tbody tr')
      .evaluateAll((rows) =>
        rows.map((row) => row.getAttribute('data-testid')?.replace('micro-running-', '')),
      );
    expect(ids).toHaveLength(2);
    const chartHost = page.getByTestId('price-chart').locator('.fx-chart-host');
    await expect
      .poll(async () => ((await chartHost.getAttribute('data-marks')) ?? '').split(' ').sort(), {
        timeout: 20_000,
      })
      .toEqual(expect.arrayContaining(ids.map((id) => `${id}-open`)));
    const marks = page.getByTestId('micro-chart-marks');
    for (const id of ids) {
      await expect(marks.locator(`li[data-key="${id}-open"]`).innerText()).resolves.toContain(`#${id}`);
      await expect(marks.locator(`li[data-key="${id}-expiry"]`).innerText()).resolves.toContain(
        en.micro.chartMark.expiry.replace('#{{id}}', `#${id}`),
      );
    }
    await fairex.screenshot('micro-en-day-running', false);
    await page.setViewportSize({ width: 1440, height: 900 });
    await fairex.screenshot('micro-en-day-chart-marks-1440', false);
    await page.setViewportSize({ width: 1600, height: 1000 });

    // Both settle about 30 s after acceptance, on the first command after expiry; each result is pushed.
    const toast = page.getByText(/Order \d+ settled/);
    await toast.first().waitFor({ timeout: 60_000 });
    await page.getByRole('tab', { name: en.micro.closed }).click();
    const closed = page.getByTestId('micro-closed');
    await closed.waitFor({ timeout: 20_000 });
    await expect.poll(async () => await closed.locator('tbody tr').count(), { timeout: 20_000 }).toBe(2);
    const outcomes = await closed.getByTestId('micro-result').allInnerTexts();
    for (const outcome of outcomes) expect(Object.values(en.micro.outcome)).toContain(outcome);
    // Each closed order says when it was placed, for how long, and its fee (issue 45): 1 % of 100 or 50.
    expect(await closed.getByTestId('micro-closed-time').allInnerTexts()).toEqual([
      expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    ]);
    expect(await closed.getByTestId('micro-closed-duration').allInnerTexts()).toEqual(['30 s', '30 s']);
    expect((await closed.getByTestId('micro-closed-fee').allInnerTexts()).sort()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^0\.50*( USDT)/),
        expect.stringMatching(/^1\.0*( USDT)/),
      ]),
    );
    // A settled order stays marked, its expiry now naming the outcome.
    await expect
      .poll(async () => await marks.locator('li[data-key$="-expiry"]').allInnerTexts(), { timeout: 20_000 })
      .toEqual(
        expect.arrayContaining([
          expect.stringMatching(new RegExp(`(${Object.values(en.micro.outcome).join('|')})$`)),
        ]),
      );

    await closed.getByRole('button', { name: en.micro.verify }).first().click();
    const proof = page.getByTestId('micro-proof');
    await proof.waitFor();
    await expect
      .poll(async () => await page.getByTestId('micro-proof-result').innerText(), { timeout: 10_000 })
      .toContain(en.micro.agrees);
    await expect
      .poll(async () => await page.getByTestId('micro-proof-chain').innerText(), { timeout: 15_000 })
      .toMatch(/Chain verified in this browser/);
    await fairex.screenshot('micro-en-day-proof', false);
    await page.keyboard.press('Escape');
    // The public daily figures have the day, but one account's orders are no public figure: "fewer than 20".
    const stats = page.getByTestId('micro-stats');
    await expect.poll(async () => await stats.locator('tbody tr').count(), { timeout: 15_000 }).toBe(1);
    const cells = await stats.locator('tbody tr td').allInnerTexts();
    expect(cells.slice(1, 3)).toEqual(['USDT', 'fewer than 20']);

    // "Export CSV" downloads the user's orders with a header row and each order's proof fields (issue 45).
    const closedIds = await closed
      .locator('tbody tr')
      .evaluateAll((rows) =>
        rows.map((row) => row.getAttribute('data-testid')?.replace('micro-closed-', '')),
      );
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('micro-export').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^fairex-seconds-orders-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    const [headerLine, ...rows] = csv.trimEnd().split('\r\n');
    const header = (headerLine ?? '').split(',');
    expect(header).toEqual(
      expect.arrayContaining(['order_id', 'stake', 'fee', 'outcome', 'open_hash', 'end_hash']),
    );
    const records = rows.map((line) => Object.fromEntries(line.split(',').map((v, i) => [header[i], v])));
    expect(records.map((record) => record.order_id).sort()).toEqual([...closedIds].sort());
    for (const record of records) {
      expect(record.status).toBe('closed');
      expect(record.stake).toMatch(/^(100|50)\.0+$/);
      expect(record.open_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(record.end_hash).toMatch(/^[0-9a-f]{64}$/);
    }
  }, 150_000);

  it('looks right at night and in Chinese, and shows login for a visitor', async () => {
    await page.getByTestId('night-toggle').click();
    await fairex.screenshot('micro-en-night', false);
    await page.setViewportSize({ width: 1440, height: 900 });
    await fairex.screenshot('micro-en-night-chart-marks-1440', false);
    await fairex.chooseLanguage('zh');
    await page.getByTestId('micro-panel').waitFor();
    await fairex.screenshot('micro-zh-night', false);
    // An order placed in Chinese is marked on the chart with Chinese labels.
    await page.getByTestId('micro-seconds-30').click();
    await page.getByTestId('micro-number').fill('10');
    await page.getByTestId('micro-up').click();
    await page.getByTestId('micro-confirm').waitFor();
    await page.getByRole('button', { name: zh.micro.confirm }).click();
    const marks = page.getByTestId('micro-chart-marks');
    await expect
      .poll(async () => (await marks.locator('li[data-key$="-expiry"]').allInnerTexts()).join(' '), {
        timeout: 20_000,
      })
      .toContain(zh.micro.chartMark.expiry.replace('#{{id}} · ', ''));
    await expect
      .poll(async () => (await page.locator('.fx-chart-host').getAttribute('data-marks')) ?? '', {
        timeout: 20_000,
      })
      .toMatch(/\d+-open/);
    await fairex.screenshot('micro-zh-night-chart-marks-1440', false);
    await page.getByTestId('night-toggle').click();
    await fairex.screenshot('micro-zh-day-chart-marks-1440', false);
    await page.getByTestId('night-toggle').click();
    await page.setViewportSize({ width: 1600, height: 1000 });
    const visitorContext = await newContext(browser, { width: 1400, height: 900 });
    const visitor = await FairexPage.open(visitorContext, server.baseURL, '/secondDealCenter');
    await visitor.page.getByTestId('micro-login').waitFor();
    await visitor.screenshot('micro-en-day-visitor', false);
    await visitorContext.close();
  }, 180_000);

  /** True when the element lies wholly inside the viewport's width and a click at its centre reaches it. */
  async function reachable(target: Page, testId: string): Promise<boolean> {
    const element = target.getByTestId(testId).first();
    await element.scrollIntoViewIfNeeded();
    const box = await element.boundingBox();
    const width = target.viewportSize()?.width ?? 0;
    if (box === null || box.x < 0 || box.x + box.width > width) return false;
    return element.evaluate(
      (node, point) => {
        const doc = (
          globalThis as unknown as { document: { elementFromPoint(x: number, y: number): unknown } }
        ).document;
        const hit = doc.elementFromPoint(point.x, point.y);
        return hit === node || (node as { contains(other: unknown): boolean }).contains(hit);
      },
      { x: box.x + box.width / 2, y: box.y + box.height / 2 },
    );
  }

  it('fits a 390 px phone: no sideways scroll, Up, Down, Result and Verify on screen (issue 45)', async () => {
    // A settled order of this user for the closed list (the first test leaves two when run before this one).
    const lists = async () => {
      const reply = await fetch(`${server.baseURL}/api/microtrade/lists?status=3&page=1`, {
        headers: { authorization: user.token },
      });
      return ((await reply.json()) as { message: { data: unknown[] } }).message.data.length;
    };
    if ((await lists()) === 0) {
      const placed = await fetch(`${server.baseURL}/api/microtrade/submit`, {
        method: 'POST',
        headers: { authorization: user.token, 'content-type': 'application/json' },
        body: JSON.stringify({ match_id: 1, currency_id: 3, type: 1, seconds: 30, number: '10' }),
      });
      expect(((await placed.json()) as { type: string }).type).toBe('ok');
      await expect.poll(lists, { timeout: 60_000, interval: 1_000 }).toBeGreaterThan(0);
    }
    for (const [language, night] of [
      ['en', '0'],
      ['zh', '1'],
      ['en', '1'],
      ['zh', '0'],
    ] as const) {
      const texts = language === 'en' ? en : zh;
      const phone = await newContext(browser, { width: 390, height: 844 });
      await phone.addInitScript(
        ({ token, account, id, lang, nightMode }) => {
          localStorage.setItem('token', token);
          localStorage.setItem('accountNum', account);
          localStorage.setItem('user_id', String(id));
          localStorage.setItem('lang', lang);
          localStorage.setItem('night_mode', nightMode);
        },
        { token: user.token, account: user.account, id: user.id, lang: language, nightMode: night },
      );
      const visit = await FairexPage.open(phone, server.baseURL, '/secondDealCenter');
      const view = visit.page;
      await view.getByTestId('micro-panel').waitFor();
      await view.getByTestId('micro-up').waitFor();
      expect(await visit.scrollWidth()).toBe(390);
      expect(await reachable(view, 'micro-up')).toBe(true);
      expect(await reachable(view, 'micro-down')).toBe(true);
      await view.getByRole('tab', { name: texts.micro.closed }).click();
      const closed = view.getByTestId('micro-closed');
      await closed.waitFor({ timeout: 20_000 });
      expect(await visit.scrollWidth()).toBe(390);
      expect(await reachable(view, 'micro-result')).toBe(true);
      const verify = closed.getByRole('button', { name: texts.micro.verify }).first();
      const verifyId = await verify.getAttribute('data-testid');
      expect(await reachable(view, verifyId ?? '')).toBe(true);
      const mode = night === '1' ? 'night' : 'day';
      await visit.screenshot(`micro-${language}-${mode}-390-closed`);
      await verify.click();
      await view.getByTestId('micro-proof').waitFor();
      await phone.close();
    }
  }, 180_000);
});
