// The public price record in real Chromium against the real server: a visitor opens the page from the
// footer, sees the published heads arrive while the page is open, looks up the samples of a market at a
// time, and has one checked in the browser against the head that covers it. The server publishes heads
// every two seconds here (instead of every minute) so the flow takes seconds.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toTimeInput } from '../packages/web/src/features/price-record/record-format.ts';
import { launchBrowser, newContext } from './support/browser.ts';
import { FairexPage } from './support/fairex-page.ts';
import { newDataDir, startServer, type ServerProcess } from './support/server-process.ts';

const HEAD_INTERVAL_MS = 2_000;
/** The first samples and heads come within seconds of a start; this leaves room for a busy machine. */
const LIVE_TIMEOUT_MS = 45_000;
const SYMBOL = 'BTC/USDT';

interface HeadRow {
  symbol: string;
  seq: number;
}

/** The heads the page lists, in order: market and number. */
async function headRows(page: Page): Promise<HeadRow[]> {
  const rows = page.getByTestId('price-head-row');
  const found: HeadRow[] = [];
  for (const row of await rows.all()) {
    const cells = await row.locator('td').allTextContents();
    found.push({ symbol: cells[0] ?? '', seq: Number(cells[1]) });
  }
  return found;
}

describe('price record', () => {
  let server: ServerProcess;
  let browser: Browser;
  let context: BrowserContext;
  let fairex: FairexPage | null = null;

  beforeAll(async () => {
    server = await startServer(await newDataDir(), { PRICE_HEAD_INTERVAL_MS: String(HEAD_INTERVAL_MS) });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  beforeEach(async () => {
    context = await newContext(browser);
  });

  afterEach(async () => {
    expect(fairex?.problems ?? []).toEqual([]);
    fairex = null;
    await context.close();
  });

  it('is linked from the footer and lists heads that arrive while it is open', async () => {
    fairex = await FairexPage.open(context, server.baseURL, '/');
    const page = fairex.page;
    // The demo's prices are simulated: every page says so under its header, the price record beside its title.
    await expect
      .poll(async () => await page.getByTestId('simulated-prices').innerText(), { timeout: LIVE_TIMEOUT_MS })
      .toContain('Simulated prices (demo)');
    await page.getByTestId('footer').getByRole('link', { name: 'Price record' }).click();
    await page.getByTestId('price-record-page').waitFor();
    expect(new URL(page.url()).pathname).toBe('/priceRecord');
    expect(await page.getByTestId('simulated-prices-badge').innerText()).toBe('Simulated prices (demo)');

    const latestSeq = async () =>
      Math.max(0, ...(await headRows(page)).filter((row) => row.symbol === SYMBOL).map((row) => row.seq));
    await expect.poll(latestSeq, { timeout: LIVE_TIMEOUT_MS }).toBeGreaterThan(0);
    const firstSeq = await latestSeq();
    // No reload: a newer head of the market shows up on its own (socket `price_head`, or the page's repair).
    await expect.poll(latestSeq, { timeout: LIVE_TIMEOUT_MS }).toBeGreaterThan(firstSeq);
    await fairex.screenshot('price-record-heads');
  });

  it('looks up the samples around a time and verifies one in the browser', async () => {
    fairex = await FairexPage.open(context, server.baseURL, '/priceRecord');
    const page = fairex.page;
    await expect
      .poll(async () => (await headRows(page)).filter((row) => row.symbol === SYMBOL).length, {
        timeout: LIVE_TIMEOUT_MS,
      })
      .toBeGreaterThanOrEqual(2);
    // A time a few seconds back: its samples are covered by a head published since.
    const lookup = page.getByTestId('price-lookup');
    expect(await lookup.locator('.ant-select').textContent()).toContain(SYMBOL);
    await page.getByTestId('lookup-time').fill(toTimeInput(Date.now() - 3 * HEAD_INTERVAL_MS));
    await page.getByTestId('lookup-submit').click();

    const rows = page.getByTestId('price-sample-row');
    await rows.first().waitFor({ timeout: LIVE_TIMEOUT_MS });
    // The oldest sample listed: a fresh server starts its transparency log before its first sample, so every
    // sample is in the log, and a sample is verified only against the log (docs/price-record.md).
    const seqs = await rows.evaluateAll((found) =>
      found.map((item) => Number(item.getAttribute('data-seq'))),
    );
    const seq = Math.min(...seqs);
    const row = page.locator(`[data-testid="price-sample-row"][data-seq="${seq}"]`);
    expect(seq).toBeGreaterThan(0);
    expect(new URL(page.url()).searchParams.get('symbol')).toBe(SYMBOL);

    await row.getByTestId(`sample-verify-${seq}`).click();
    const result = page.getByTestId('proof-result');
    await result.waitFor();
    await expect
      .poll(() => result.getAttribute('data-result'), { timeout: LIVE_TIMEOUT_MS })
      .toBe('verified');
    expect(await result.textContent()).toContain('Verified:');
    await fairex.screenshot('price-record-verified');
  });
});
