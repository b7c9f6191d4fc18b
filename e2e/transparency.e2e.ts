// Every user's browser is a witness (issue 42), in real Chromium against a real server of its own: the price
// record page checks the exchange's log against what the browser saw before and verifies a sample's
// inclusion against the checkpoint it holds; a user with a balance sees their liabilities proof verified on
// the assets page (and in a toast at login) after a snapshot is taken, and the warning when the served proof has one sibling sum
// lowered; and a checkpoint in local storage that the server's log does not extend shows the fork warning
// with both checkpoints to download. Screenshots in day and night, English and Chinese, at 1440 and 390 px
// go to artifacts/screenshots.
import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../packages/server/src/admin/admins.ts';
import { AdminAuthenticator } from '../packages/server/src/admin/sessions.ts';
import { openStore } from '../packages/server/src/store/index.ts';
import { passSecondFactor } from './admin-seed.ts';
import {
  depositThroughCustody,
  seedSpotUsers,
  SPOT_E2E_CUSTODY_ENV,
  USDT_TRC20_DEPOSIT,
  type SeededUser,
} from './spot-seed.ts';
import { launchBrowser, newContext } from './support/browser.ts';
import { FairexPage } from './support/fairex-page.ts';
import { newDataDir, startServer, type ServerProcess } from './support/server-process.ts';

/** The first samples, log entries and checkpoints come within seconds of a start; room for a busy machine. */
const LIVE_TIMEOUT_MS = 60_000;
const SYMBOL = 'BTC/USDT';
/**
 * The back office's on-demand liabilities snapshot (issue 42: "plus on demand from the back office,
 * audited"): the administrator call that submits `captureLiabilities` and publishes the result.
 */
const CAPTURE_PATH = '/backoffice/liabilities/capture';

interface Envelope<T> {
  type: string;
  message: T;
}

async function getJson<T>(baseURL: string, path: string, token?: string): Promise<T> {
  const reply = (await fetch(`${baseURL}/api${path}${path.includes('?') ? '&' : '?'}lang=en`, {
    headers: token === undefined ? {} : { authorization: token },
  }).then((response) => response.json())) as Envelope<T>;
  if (reply.type !== 'ok') throw new Error(`${path} answered ${JSON.stringify(reply)}`);
  return reply.message;
}

/** Signs the user in as the login dialog leaves it, before any script runs; the log witness is kept. */
async function signIn(context: BrowserContext, user: SeededUser, lang = 'en'): Promise<void> {
  await context.addInitScript(
    ({ token, account, id, language }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('accountNum', account);
      localStorage.setItem('user_id', String(id));
      if (localStorage.getItem('lang') === null) localStorage.setItem('lang', language);
    },
    { token: user.token, account: user.account, id: user.id, language: lang },
  );
}

describe('the browser as a witness of the transparency log', () => {
  let server: ServerProcess;
  let browser: Browser;
  let users: SeededUser[];
  let adminToken: string;

  beforeAll(async () => {
    const dataDir = await newDataDir();
    users = await seedSpotUsers(dataDir, 2);
    const store = await openStore({ dataDir });
    try {
      const adminId = await createAdmin(store, {
        username: 'auditor',
        password: 'auditor-password-for-the-log-e2e',
        role: 'admin',
        createdBy: null,
      });
      adminToken = (await new AdminAuthenticator(store).create(adminId, '127.0.0.1')).token;
    } finally {
      await store.close();
    }
    server = await startServer(dataDir, { ...SPOT_E2E_CUSTODY_ENV, MARKET_MAKER: 'off' });
    await passSecondFactor(server.baseURL, adminToken);
    // Two users with money, so that a user's proof has a sibling whose sums can be lowered.
    for (const [i, user] of users.entries()) {
      await depositThroughCustody(server.baseURL, user, {
        ...USDT_TRC20_DEPOSIT,
        amount: String(1_000_000_000 * (i + 1)),
      });
    }
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Opens the sample's proof on the price record page until it is in a checkpoint the browser holds. */
  async function verifySample(fairex: FairexPage): Promise<string | null> {
    const page = fairex.page;
    const at = Date.now() - 5_000;
    await fairex.goto(`/priceRecord?symbol=${encodeURIComponent(SYMBOL)}&at=${at}`);
    const rows = page.getByTestId('price-sample-row');
    await rows.first().waitFor({ timeout: LIVE_TIMEOUT_MS });
    // The newest sample listed: the first ones of a fresh server may predate the log's start.
    const seqs = await rows.evaluateAll((found) => found.map((row) => Number(row.getAttribute('data-seq'))));
    const seq = Math.max(...seqs);
    expect(seq).toBeGreaterThan(0);
    const result = page.getByTestId('proof-result');
    await expect
      .poll(
        async () => {
          await fairex.goto(`/priceRecord?symbol=${encodeURIComponent(SYMBOL)}&at=${at}&seq=${seq}`);
          await result.waitFor();
          // Settled: anything but the check still running.
          await expect
            .poll(() => result.getAttribute('data-result'), { timeout: 15_000 })
            .not.toBe('loading');
          return result.getAttribute('data-result');
        },
        { timeout: LIVE_TIMEOUT_MS, interval: 2_000 },
      )
      .toBe('verified');
    return result.textContent();
  }

  it('verifies a price sample against the checkpoint the browser holds', async () => {
    const context = await newContext(browser);
    const fairex = await FairexPage.open(context, server.baseURL, '/');
    const page = fairex.page;
    await page.getByTestId('footer').getByRole('link', { name: 'Transparency' }).waitFor();
    const text = await verifySample(fairex);
    expect(text).toMatch(
      /Verified: the sample's hash, recomputed in this browser, is in log entry \d+, included in the checkpoint of \d+ entries this browser holds\./,
    );
    expect(text).not.toContain('published at');
    // The page shows the log key the server serves, and the browser keeps the checkpoint it verified.
    const key = await getJson<{ key: string }>(server.baseURL, '/log/key');
    expect(await page.getByTestId('log-key').textContent()).toBe(key.key);
    const held = JSON.parse((await fairex.stored('log_witness')) ?? '{}') as Record<
      string,
      { key: string; checkpoint: { size: number; note: string } }
    >;
    const mine = held[new URL(server.baseURL).origin];
    expect(mine?.key).toBe(key.key);
    expect(mine?.checkpoint.size).toBeGreaterThan(0);
    expect(mine?.checkpoint.note).toContain(`\u2014 ${key.key.split('+')[0]} `);
    // A later visit checks consistency from the held size.
    await fairex.reload();
    await expect
      .poll(async () => (await page.getByTestId('log-consistent').textContent()) ?? '', {
        timeout: LIVE_TIMEOUT_MS,
      })
      .toMatch(/^Consistent: /);
    expect(fairex.problems).toEqual([]);
    await context.close();
  });

  it("verifies the user's liabilities on the assets page, and warns when the served proof is tampered with", async () => {
    const response = await fetch(`${server.baseURL}/api${CAPTURE_PATH}?lang=en`, {
      method: 'POST',
      headers: { authorization: adminToken, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'end-to-end check of the liabilities proof' }),
    });
    const reply = (await response.json()) as Envelope<unknown>;
    expect(reply.type, JSON.stringify(reply)).toBe('ok');
    // Published, and in a checkpoint (a liabilities entry always makes one).
    await expect
      .poll(
        async () => {
          const latest = await getJson<{ index: number } | null>(server.baseURL, '/log/liabilities/latest');
          const checkpoint = await getJson<{ size: number }>(server.baseURL, '/log/checkpoint');
          return latest !== null && latest.index < checkpoint.size;
        },
        { timeout: LIVE_TIMEOUT_MS },
      )
      .toBe(true);

    const context = await newContext(browser);
    await signIn(context, users[1]!);
    const fairex = await FairexPage.open(context, server.baseURL, '/new_account');
    const page = fairex.page;
    // Checked at login too: a toast says so on the first page after signing in.
    const toast = page.getByTestId('login-witness');
    await toast.waitFor({ timeout: LIVE_TIMEOUT_MS });
    expect(await toast.getAttribute('data-result')).toBe('verified');
    const mine = page.getByTestId('my-liabilities');
    await expect.poll(() => mine.getAttribute('data-result'), { timeout: LIVE_TIMEOUT_MS }).toBe('verified');
    expect(await mine.textContent()).toMatch(
      /Your balances on \d{4}-\d\d-\d\d \d\d:\d\d:\d\d are included in the published total\./,
    );
    expect(await mine.textContent()).toContain('USDT 2000000000');
    await fairex.screenshot('transparency-assets-verified');

    // The same page with the served proof changed on its way: one sibling sum lowered by one unit.
    let tampered = false;
    await page.route('**/api/log/liabilities/proof**', async (route) => {
      const served = await route.fetch();
      const body = (await served.json()) as Envelope<{ path: { sums: string[] }[] }>;
      for (const node of body.message.path) {
        const column = node.sums.findIndex((sum) => sum !== '0');
        if (column >= 0) {
          node.sums[column] = String(BigInt(node.sums[column]!) - 1n);
          tampered = true;
          break;
        }
      }
      await route.fulfill({ response: served, json: body });
    });
    await fairex.reload();
    await expect.poll(() => mine.getAttribute('data-result'), { timeout: LIVE_TIMEOUT_MS }).toBe('failed');
    expect(tampered).toBe(true);
    expect(await mine.textContent()).toContain(
      'Your balances could not be shown to be in the published total',
    );
    await fairex.screenshot('transparency-assets-tampered');
    await page.unroute('**/api/log/liabilities/proof**');

    // The transparency page: the published totals, checked, and what is not proven.
    await fairex.goto('/transparency');
    await expect
      .poll(() => page.getByTestId('liabilities-inclusion').getAttribute('data-result'), {
        timeout: LIVE_TIMEOUT_MS,
      })
      .toBe('included');
    expect(await page.getByTestId('liabilities-totals').textContent()).toContain('USDT');
    expect(await page.getByTestId('reserves-note').textContent()).toContain('not proven on chain');
    expect(fairex.problems).toEqual([]);
    await context.close();
  });

  it('shows the fork warning with both checkpoints when the held checkpoint is not extended by the log', async () => {
    const key = await getJson<{ origin: string; key: string }>(server.baseURL, '/log/key');
    const origin = new URL(server.baseURL).origin;
    // A checkpoint this browser "saw" of one entry whose root the real log never had.
    const forgedRoot = 'ab'.repeat(32);
    const forgedNote =
      `${key.origin}\n1\n${Buffer.from(forgedRoot, 'hex').toString('base64')}\n\n` +
      `\u2014 ${key.origin} ${Buffer.alloc(68, 1).toString('base64')}\n`;
    const context = await newContext(browser);
    await context.addInitScript(
      ({ exchange, keyText, root, note }) => {
        localStorage.setItem(
          'log_witness',
          JSON.stringify({
            [exchange]: {
              key: keyText,
              checkpoint: { size: 1, root, note, time: 1, verifiedAt: 1 },
            },
          }),
        );
        localStorage.setItem('lang', 'en');
      },
      { exchange: origin, keyText: key.key, root: forgedRoot, note: forgedNote },
    );
    const fairex = await FairexPage.open(context, server.baseURL, '/priceRecord');
    const page = fairex.page;
    const warning = page.getByTestId('log-fork-warning');
    await warning.waitFor({ timeout: LIVE_TIMEOUT_MS });
    expect(await warning.textContent()).toContain(
      "The exchange's log is not consistent with what this browser saw before: it may have rewritten its history.",
    );
    const held = page.getByTestId('log-download-held');
    const served = page.getByTestId('log-download-served');
    expect(await held.getAttribute('download')).toBe('checkpoint-held-1.txt');
    expect(await served.getAttribute('download')).toMatch(/^checkpoint-served-\d+\.txt$/);
    expect(await held.getAttribute('href')).toMatch(/^blob:/);
    const [download] = await Promise.all([page.waitForEvent('download'), held.click()]);
    expect(await readFile((await download.path())!, 'utf8')).toBe(forgedNote);
    const [second] = await Promise.all([page.waitForEvent('download'), served.click()]);
    const servedNote = await readFile((await second.path())!, 'utf8');
    expect(servedNote.startsWith(`${key.origin}\n`)).toBe(true);
    // The held checkpoint is not replaced by the one that does not extend it.
    const stored = JSON.parse((await fairex.stored('log_witness')) ?? '{}') as Record<
      string,
      { checkpoint: { root: string } }
    >;
    expect(stored[origin]?.checkpoint.root).toBe(forgedRoot);
    await fairex.screenshot('transparency-fork-warning');
    await context.close();
  });

  it('looks right in day and night, English and Chinese, at 1440 and 390 px', async () => {
    for (const width of [1440, 390]) {
      for (const lang of ['en', 'zh']) {
        for (const night of [false, true]) {
          const context = await newContext(browser, { width, height: 900 });
          await signIn(context, users[1]!, lang);
          await context.addInitScript(
            ({ language, dark }) => {
              localStorage.setItem('lang', language);
              localStorage.setItem('night_mode', dark ? '1' : '0');
            },
            { language: lang, dark: night },
          );
          const fairex = await FairexPage.open(context, server.baseURL, '/transparency');
          const page: Page = fairex.page;
          const name = `${width}-${lang}-${night ? 'night' : 'day'}`;
          await page.getByTestId('liabilities-inclusion').waitFor({ timeout: LIVE_TIMEOUT_MS });
          await page
            .getByTestId('my-liabilities')
            .locator('.ant-alert')
            .waitFor({ timeout: LIVE_TIMEOUT_MS });
          expect(await fairex.scrollWidth()).toBeLessThanOrEqual(width);
          await fairex.screenshot(`transparency-${name}`);
          await fairex.goto(`/priceRecord?symbol=${encodeURIComponent(SYMBOL)}&at=${Date.now() - 10_000}`);
          await page.getByTestId('log-checkpoint').waitFor({ timeout: LIVE_TIMEOUT_MS });
          expect(await fairex.scrollWidth()).toBeLessThanOrEqual(width);
          await fairex.screenshot(`price-record-log-${name}`);
          await fairex.goto('/new_account');
          await page
            .getByTestId('my-liabilities')
            .locator('.ant-alert')
            .waitFor({ timeout: LIVE_TIMEOUT_MS });
          expect(await fairex.scrollWidth()).toBeLessThanOrEqual(width);
          await fairex.screenshot(`assets-liabilities-${name}`);
          await context.close();
        }
      }
    }
  });
});
