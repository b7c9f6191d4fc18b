// A fresh `npm start` (DEMO=on, the default) in real Chromium: with no user yet, every public figure on
// the home page is zero or "fewer than 20" (the seeded demo merchant counts for nothing), and a flash
// exchange of 10 USDT to BTC fills at once, paid by the flash desk the demo funded with house capital.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newContext } from './support/browser.ts';
import { FairexPage } from './support/fairex-page.ts';
import { newDataDir, startServer, type ServerProcess } from './support/server-process.ts';
import {
  SPOT_E2E_CUSTODY_ENV,
  USDT_TRC20_DEPOSIT,
  depositThroughCustody,
  seedSpotUsers,
} from './spot-seed.ts';

/** A figure the home page may show on a fresh exchange: zero, or the translated "fewer than 20". */
const FRESH_FIGURE = /^(0|fewer than 20)$/;

describe('a fresh demo start', () => {
  let browser: Browser;
  let context: BrowserContext | undefined;
  let server: ServerProcess | undefined;
  let dataDir: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    dataDir = await newDataDir();
    server = await startServer(dataDir, { ...SPOT_E2E_CUSTODY_ENV, DEMO: 'on' });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
  });

  it('shows zero or "fewer than 20" for every public figure on the home page', async () => {
    const running = server as ServerProcess;
    const reply = (await (await fetch(`${running.baseURL}/api/stats/home`)).json()) as {
      message: Record<string, unknown>;
    };
    // The demo merchant exists but is no registered account of anyone's.
    for (const key of ['users', 'trades_24h', 'traders_24h'])
      expect([0, null], key).toContain(reply.message[key]);

    context = await newContext(browser, { width: 1440, height: 900 });
    const fairex = await FairexPage.open(context, running.baseURL, '/');
    const page: Page = fairex.page;
    await page.getByTestId('home-stats').scrollIntoViewIfNeeded();
    await page.locator('[data-testid="home-stats"][data-counting="done"]').waitFor({ timeout: 15_000 });
    for (const key of ['users', 'trades24h'])
      expect((await page.getByTestId(`stat-${key}`).innerText()).trim(), key).toMatch(FRESH_FIGURE);
    // The activity line shows no figure but "fewer than 20" (a quiet hour shows none at all).
    const figures = page.locator('[data-testid^="activity-"]:not([data-testid="activity-toast"])');
    for (const text of await figures.allInnerTexts()) expect(text).toMatch(/fewer than 20$/);
    // The customer counter says no account has been opened, or "fewer than 20".
    const counter = await page.getByTestId('customer-counter').innerText();
    expect(counter).toMatch(/No account has been opened|fewer than 20/);
    await context.close();
    context = undefined;
  }, 60_000);

  it('fills a flash exchange of 10 USDT to BTC', async () => {
    // A user joins: written to the stopped server's folder, then funded through the deposit path.
    await (server as ServerProcess).stop({ keepData: true });
    server = undefined;
    const [user] = await seedSpotUsers(dataDir, 1);
    if (user === undefined) throw new Error('no user was seeded');
    server = await startServer(dataDir, { ...SPOT_E2E_CUSTODY_ENV, DEMO: 'on' });
    const running = server;
    await depositThroughCustody(running.baseURL, user, { ...USDT_TRC20_DEPOSIT, amount: '100000000' });

    context = await newContext(browser, { width: 1280, height: 900 });
    await context.addInitScript(
      ({ token, account, id }) => {
        localStorage.setItem('token', token);
        localStorage.setItem('accountNum', account);
        localStorage.setItem('user_id', String(id));
      },
      { token: user.token, account: user.account, id: user.id },
    );
    const fairex = await FairexPage.open(context, running.baseURL, '/flash');
    const page = fairex.page;
    // The price comes from the live index; the desk's BTC is funded at the first one.
    await expect
      .poll(() => page.getByTestId('flash-price').innerText(), { timeout: 60_000 })
      .toMatch(/^1 BTC = [\d,]+(\.\d+)? USDT$/);
    const paid = page.locator('input[data-testid="flash-paid"], [data-testid="flash-paid"] input').first();
    await paid.fill('10');
    await page.getByTestId('flash-submit').click();
    await page.waitForURL(/\/new_account$/, { timeout: 15_000 });

    const records = (await (
      await fetch(`${running.baseURL}/api/wallet/myFlashAgainstList`, {
        method: 'POST',
        headers: { authorization: user.token, 'content-type': 'application/json' },
        body: '{}',
      })
    ).json()) as { type: string; message: { data: { num: string; absolute_quantity: string }[] } };
    expect(records.type).toBe('ok');
    expect(records.message.data[0]?.num).toBe('10.000000');
    expect(Number(records.message.data[0]?.absolute_quantity)).toBeGreaterThan(0);
  }, 180_000);
});
