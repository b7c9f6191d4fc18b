// Every figure on /ico, /miner and /defi, read in real Chromium, equals what the API answered, and what the API
// answered equals the ledger: the user's own wallets (POST /api/wallet/list) and the ledger's aggregate per
// currency (the back office's solvency table, every account of the engine summed by owner and wallet).
// A user of the demo products buys IEPN, rents a miner and stakes USDT over the real calls, a day passes
// and is accrued, part of the miner's earnings is extracted; then each screen is read element by element.
// Every element of a product card or row that carries a test id must be one this test knows how to check, so
// a figure added to a screen without a check here makes the test fail.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type {
  AdminProductsReply,
  DefiItem,
  DefiListReply,
  DefiTotalReply,
  IcoItem,
  IcoListReply,
  MinerItem,
  MinerListReply,
  MinerOrderInfo,
  P2pAd,
} from '@fairex/shared';
import { minerCost, minerOutlook } from '@fairex/engine/calc';
import { formatDecimal } from '@fairex/shared/decimal.ts';
import en from '../packages/web/src/i18n/locales/en.json' with { type: 'json' };
import { launchBrowser, newContext } from './support/browser.ts';
import { FairexPage } from './support/fairex-page.ts';
import { startProductsServer, type ProductsE2E } from './products-seed.ts';

interface SolvencyRow {
  code: string;
  users: Record<string, string>;
  users_locked: string;
  system: Record<string, string>;
}

interface WalletLine {
  currency_name: string;
  [field: string]: unknown;
}

/** Exact decimal text as minor units at a common scale, for sums (no JavaScript number holds money here). */
function units(text: string, scale: number): bigint {
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole + fraction.padEnd(scale, '0').slice(0, scale));
}

function sum(texts: string[], scale: number): bigint {
  return texts.reduce((total, text) => total + units(text, scale), 0n);
}

/** "YYYY-MM-DD HH:mm:ss" in UTC+8, the screens' default display zone (no daylight saving there). */
function shanghai(timeMs: number): string {
  return new Date(timeMs + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** The figure as the screen groups it: thousands separated by commas. */
function grouped(text: string): string {
  const [whole = '', fraction] = text.split('.');
  const withCommas = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? withCommas : `${withCommas}.${fraction}`;
}

describe('product figures equal the API and the ledger', () => {
  let env: ProductsE2E;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let fairex: FairexPage;

  beforeAll(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'fairex-products-figures-e2e-'));
    env = await startProductsServer(dataDir, { ico: '1000', miner: '2000', defi: '5000' });
    await env.call('/ico/buy', { id: 1, number: 1234 });
    await env.call('/miner/buy', { id: 2, number: 2 });
    await env.call('/miner/buy', { id: 3, number: 1 });
    await env.call('/defi/buy', { id: 4, number: 1500 });
    await env.advanceDays(2);
    await env.admin('/backoffice/products/accrue');
    await env.call('/miner/extract', { id: 2, number: '0.00003' });
    browser = await launchBrowser();
    context = await newContext(browser, { width: 1440, height: 900 });
    await context.addInitScript(
      ({ token, account, id }) => {
        localStorage.setItem('token', token);
        localStorage.setItem('accountNum', account);
        localStorage.setItem('user_id', String(id));
      },
      { token: env.user.token, account: env.user.account, id: env.user.id },
    );
    fairex = await FairexPage.open(context, env.server.baseURL, '/ico');
    page = fairex.page;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await env?.server.stop();
  });

  async function solvency(code: string): Promise<SolvencyRow> {
    const dashboard = await env.admin<{ solvency: { rows: SolvencyRow[]; balanced: boolean } }>(
      '/backoffice/dashboard',
      {},
      'GET',
    );
    expect(dashboard.solvency.balanced).toBe(true);
    const row = dashboard.solvency.rows.find((candidate) => candidate.code === code);
    if (row === undefined) throw new Error(`no solvency row for ${code}`);
    return row;
  }

  async function walletLine(wallet: string, currency: string): Promise<WalletLine> {
    const list = await env.call<Record<string, { balance: WalletLine[] }>>('/wallet/list');
    const line = list[`${wallet}_wallet`]?.balance.find((candidate) => candidate.currency_name === currency);
    if (line === undefined) throw new Error(`no ${currency} line in the ${wallet} wallet`);
    return line;
  }

  /** Reads every test id under `root` whose id starts with `prefix`, as a map of suffix to visible text. */
  async function figures(root: string, prefix: string): Promise<Map<string, string>> {
    const entries = await page
      .locator(`${root} [data-testid^="${prefix}"]`)
      .evaluateAll((nodes) =>
        nodes.map(
          (node) => [node.getAttribute('data-testid') ?? '', (node.textContent ?? '').trim()] as const,
        ),
      );
    return new Map(entries.map(([id, text]) => [id.slice(prefix.length), text]));
  }

  /** Checks every figure read against `expected`; a figure without an expectation fails the test. */
  function compare(
    read: Map<string, string>,
    expected: Record<string, string | ((text: string) => boolean)>,
  ) {
    for (const [suffix, text] of read) {
      const want = expected[suffix];
      expect(want, `a figure without a check: ${suffix} = ${text}`).toBeDefined();
      if (typeof want === 'function') expect(want(text), `${suffix} = ${text}`).toBe(true);
      else expect(text, suffix).toBe(want);
    }
    for (const suffix of Object.keys(expected))
      expect(read.has(suffix), `not on the screen: ${suffix}`).toBe(true);
  }

  it('shows each token sale as the API and the ledger have it', async () => {
    await page.goto(`${env.server.baseURL}/ico`);
    await page.getByTestId('ico-1').waitFor();
    const { data } = await env.call<IcoListReply>('/ico/list', { status: -1 });
    expect(data.length).toBeGreaterThan(0);
    for (const item of data) {
      const card = `[data-testid="ico-${item.id}"]`;
      await page.locator(card).waitFor();
      compare(await figures(card, `ico-${item.id}-`), icoExpected(item));
    }
    // The API against the ledger: tokens sold are what users hold in their ico wallets, remaining is what
    // the house holds, the user's holding is the user's ico balance of the token.
    const iepn = data.find((item) => item.ico_symbol === 'IEPN') as IcoItem;
    const row = await solvency('IEPN');
    const scale = 8;
    expect(units(row.users.ico ?? '0', scale)).toBe(units(iepn.ico_has, scale));
    expect(units(row.system.house ?? '0', scale)).toBe(units(iepn.remaining, scale));
    expect(units(iepn.ico_has, scale) + units(iepn.remaining, scale)).toBe(units(iepn.ico_number, scale));
    expect(iepn.ico_has).toBe('1234');
    const own = await walletLine('ico', 'IEPN');
    expect(units(String(own.ico_balance), scale)).toBe(units(iepn.hold_number, scale));
    const info = await env.call<{ yfx: string; sy: string; total: string }>('/iepn', {}, 'GET');
    expect([info.yfx, info.sy, info.total]).toEqual([iepn.ico_has, iepn.remaining, iepn.ico_number]);
  });

  it('shows each miner and each rent as the API and the ledger have it', async () => {
    await page.goto(`${env.server.baseURL}/miner`);
    await page.getByTestId('miner-2').waitFor();
    const list = await env.call<MinerListReply>('/miner/list', { status: -1 });
    // Each miner on sale shows what one unit returns over the term at the mark price it names (issue 45): that
    // mark is one the price record holds, and every figure is the engine's formula at it.
    await page.locator('[data-testid$="-outlook-mark"]').first().waitFor();
    const now = env.clock.now();
    const samples = await env.call<{ samples: { mark_price: string | null }[] }>(
      '/price/samples',
      { symbol: 'BTC/USDT', from: now - 300_000 },
      'GET',
    );
    const recorded = new Set(samples.samples.map((sample) => sample.mark_price));
    for (const item of list.data) {
      const card = `[data-testid="miner-${item.id}"]`;
      const read = await figures(card, `miner-${item.id}-`);
      const mark = (read.get('outlook-mark') ?? '').replace(/,/g, '');
      expect(recorded.has(mark), `mark ${mark} is a recorded BTC/USDT mark`).toBe(true);
      compare(read, minerExpected(item, false, mark));
    }
    await fairex.screenshot('products-miner-outlook-en-day');
    await page.setViewportSize({ width: 390, height: 844 });
    await fairex.screenshot('products-miner-outlook-en-day-390');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByTestId('miner-tab-1').click();
    const rents = await env.call<MinerListReply>('/miner/record', { status: 1 });
    expect(rents.data.length).toBe(2);
    for (const rent of rents.data) {
      const card = `[data-testid="miner-rent-${rent.id}"]`;
      await page.locator(card).waitFor();
      compare(await figures(card, `miner-rent-${rent.id}-`), minerExpected(rent, true));
    }
    // The ledger: the house's BTC is what the miners still promise, plus what was accrued and not yet
    // extracted, plus what is free on the house account (a recorded day below the maximum releases the
    // difference); the users' BTC in miner wallets is what was extracted; the fees account holds the fees.
    const btc = await solvency('BTC');
    const { products } = await env.admin<AdminProductsReply>('/backoffice/products', {}, 'GET');
    const miners = products.filter((line) => line.kind === 'miner');
    for (const item of list.data) {
      const line = miners.find((candidate) => candidate.id === item.product_id);
      expect([line?.sold, line?.remaining, line?.house.reserved]).toEqual([
        item.sold,
        item.remaining,
        item.house.reserved,
      ]);
    }
    // The house's BTC also holds the flash desk (its change wallet), which the demo funds (wallets.md).
    const desk = await env.admin<{ list: { code: string; available: string }[] }>(
      '/backoffice/flash_desk',
      {},
      'GET',
    );
    const deskBtc = units(desk.list.find((line) => line.code === 'BTC')?.available ?? '0', 8);
    expect(units(btc.system.house ?? '0', 8)).toBe(
      sum(
        miners.flatMap((line) => [line.house.reserved, line.house.accrued_unpaid]),
        8,
      ) +
        units(miners[0]?.house_available ?? '0', 8) +
        deskBtc,
    );
    expect(units(btc.users.miner ?? '0', 8)).toBe(
      sum(
        rents.data.map((rent) => rent.earnings_extract),
        8,
      ),
    );
    const infos = await Promise.all(
      rents.data.map((rent) => env.call<MinerOrderInfo>('/miner/info', { id: rent.id })),
    );
    const usdt = await solvency('USDT');
    expect(units(usdt.system.fees ?? '0', 6)).toBe(
      sum(
        infos.map((info) => info.fee_amount),
        6,
      ),
    );
    const own = await walletLine('miner', 'BTC');
    expect(units(String(own.miner_balance), 8)).toBe(
      sum(
        rents.data.map((rent) => rent.earnings_extract),
        8,
      ),
    );
  });

  it('shows the defi totals, products and holdings as the API and the ledger have them', async () => {
    await page.goto(`${env.server.baseURL}/defi`);
    await page.getByTestId('defi-4-apr').waitFor();
    const total = await env.call<DefiTotalReply>('/defi/total', {}, 'GET');
    await expect
      .poll(() => page.getByTestId('defi-wallet-total').textContent())
      .toBe(`${grouped(total.balance ?? '')} USDT`);
    expect(await page.getByTestId('defi-held-total').textContent()).toBe(
      `${grouped(total.total ?? '')} USDT`,
    );
    const list = await env.call<DefiListReply>('/defi/list', { status: -1 });
    for (const item of list.data) {
      const row = `tr[data-row-key="${item.id}"]`;
      compare(await figures(row, `defi-${item.id}-`), defiExpected(item, false));
    }
    await page.getByTestId('defi-tab-1').click();
    const held = await env.call<DefiListReply>('/defi/record', { status: 1 });
    expect(held.data.length).toBe(1);
    const item = held.data[0] as DefiItem;
    await expect
      .poll(() => page.getByTestId(`defi-${item.id}-held`).textContent())
      .toBe(grouped(item.defi_number));
    compare(await figures(`tr[data-row-key="${item.id}"]`, `defi-${item.id}-`), defiExpected(item, true));
    await page.locator(`tr[data-row-key="${item.id}"] .ant-table-row-expand-icon`).click();
    const details = `[data-testid="defi-${item.id}-details"]`;
    await page.locator(details).waitFor();
    compare(await figures(details, `defi-${item.id}-`), detailsExpected(item));
    const stake = item.stakes[0];
    if (stake === undefined) throw new Error('no stake listed');
    compare(await figures(details, `stake-${stake.id}-`), {
      number: grouped(stake.number),
      earnings: grouped(stake.earnings),
      daily: grouped(stake.daily),
      days: `${stake.days_accrued} / ${stake.defi_day}`,
      state: en.products.defi.state[stake.state],
      returned: stake.returned === null ? '--' : grouped(stake.returned),
      exit: en.products.defi.exit,
    });
    expect(stake.days_accrued).toBe(1);
    // The ledger: the staked principal is held (locked) on the user's defi wallet, the user's only lock; the
    // only other users' lock is the escrow of the P2P demo merchant's sell ad (CNY, no maker fee by
    // default), which the public ad book shows; the earnings accrued equal the days accrued times the daily
    // amount; the wallet's value is what the header shows.
    const own = await walletLine('defi', 'USDT');
    expect(units(String(own.lock_defi_balance), 6)).toBe(units(item.defi_number, 6));
    const sellAds = await env.call<{ data: P2pAd[] }>(
      '/p2p/ads',
      { side: 'buy', currency_id: 3, fiat: 'CNY' },
      'GET',
    );
    const escrow = sellAds.data.reduce((sum, ad) => sum + units(ad.available, 6), 0n);
    const usdt = await solvency('USDT');
    expect(units(usdt.users_locked, 6)).toBe(units(item.defi_number, 6) + escrow);
    expect(units(stake.earnings, 6)).toBe(units(stake.daily, 6) * BigInt(stake.days_accrued));
    expect(units(item.total, 6)).toBe(units(item.defi_number, 6) + units(item.earnings_total, 6));
    const list2 = await env.call<Record<string, { usdt_total: string }>>('/wallet/list');
    expect(units(total.balance ?? '', 6)).toBe(units(list2.defi_wallet?.usdt_total ?? '', 6));
  });
});

function timeCheck(timeMs: number): string {
  return shanghai(timeMs);
}

function riskCheck(item: { rule_text: string; risk_text: string; house: { reserved: string } }) {
  return (text: string) =>
    text.includes(item.rule_text) &&
    text.includes(item.risk_text) &&
    text.includes(grouped(item.house.reserved));
}

function icoExpected(item: IcoItem): Record<string, string | ((text: string) => boolean)> {
  return {
    symbol: item.ico_symbol,
    status: en.products.status[item.status],
    load: `${item.ico_load}%`,
    price: grouped(item.ico_price),
    currency: item.ico_currency,
    total: grouped(item.ico_number),
    sold: grouped(item.ico_has),
    remaining: grouped(item.remaining),
    cap: item.per_user_cap === null ? en.products.noCap : grouped(item.per_user_cap),
    start: timeCheck(item.start_time),
    end: timeCheck(item.end_time),
    'end-day': String(item.end_day),
    hold: grouped(item.hold_number),
    // The sale declares no release schedule: the card says the tokens are credited at once, not locked.
    release: `${en.products.ico.releaseTitle} ${en.products.ico.releaseNote.replace('{{symbol}}', item.ico_symbol)}`,
    'hold-amount': grouped(item.hold_amount),
    'hold-new': grouped(item.hold_new_amount),
    risk: riskCheck(item),
    buy: en.products.ico.buy,
  };
}

function scaleOf(text: string): number {
  return text.split('.')[1]?.length ?? 0;
}

/** A signed amount as the screen shows it: grouped, and a gain with its plus sign. */
function signed(minor: bigint, scale: number): string {
  return `${minor < 0n ? '' : '+'}${grouped(formatDecimal(minor, scale))}`;
}

/**
 * One unit's return over the term at `mark`, by the engine's formulas (@fairex/engine/calc): output, its value,
 * the cost (rent + fee), the net result and the break-even price, at the finer of the rent's and mark's scales.
 */
function outlookExpected(
  item: MinerItem,
  mark: string,
): Record<string, string | ((text: string) => boolean)> {
  const earnScale = scaleOf(item.miner_earnings);
  const payScale = scaleOf(item.miner_price);
  const scale = Math.max(payScale, scaleOf(mark));
  const lift = (text: string, from: number) => units(text, from) * 10n ** BigInt(scale - from);
  const { paid } = minerCost({
    quantity: 1n,
    price: units(item.miner_price, payScale),
    feeBp: Number(units(item.miner_fee, 2)),
  });
  const outlook = minerOutlook({
    units: 1n,
    perUnit: units(item.miner_earnings, earnScale),
    days: item.miner_day,
    earnScale,
    paid: paid * 10n ** BigInt(scale - payScale),
    price: lift(mark, scaleOf(mark)),
  });
  return {
    outlook: (text) => text.includes(en.products.miner.outlookTitle),
    'outlook-output': grouped(formatDecimal(outlook.output, earnScale)),
    'outlook-mark': grouped(mark),
    'outlook-value': grouped(formatDecimal(outlook.value, scale)),
    'outlook-cost': grouped(formatDecimal(paid * 10n ** BigInt(scale - payScale), scale)),
    'outlook-net': signed(outlook.net, scale),
    'outlook-break-even':
      outlook.breakEven === null ? '--' : grouped(formatDecimal(outlook.breakEven, scale)),
    'outlook-assumptions': (text) =>
      text.includes(`for all ${item.miner_day} days`) && text.includes("today's mark price"),
  };
}

function minerExpected(
  item: MinerItem,
  rent: boolean,
  mark = '',
): Record<string, string | ((text: string) => boolean)> {
  const expected: Record<string, string | ((text: string) => boolean)> = {
    currency: item.currency_name,
    status: item.miner_status_lang,
    load: `${item.end_load}%`,
    hashrate: item.miner_hashrate,
    price: grouped(item.miner_price),
    fee: `${item.miner_fee}%`,
    earnings: grouped(item.miner_earnings),
    range: item.miner_earnings_range,
    days: String(item.miner_day),
    number: grouped(item.miner_number),
    end: timeCheck(item.end_time),
    rule: (text) =>
      text.includes(item.rate_kind === 'fixed' ? 'Fixed daily output' : item.miner_earnings_range),
    risk: riskCheck(item),
  };
  if (rent) {
    expected['earnings-total'] = grouped(item.earnings_total);
    expected['earnings-extract'] = grouped(item.earnings_extract);
    expected['earnings-link'] = en.products.miner.earningsLink;
    expected['extract-link'] = en.products.miner.extractLink;
  } else {
    expected.remaining = grouped(item.remaining);
    expected.buy = en.products.miner.buy;
    Object.assign(expected, outlookExpected(item, mark));
  }
  return expected;
}

function defiExpected(
  item: DefiItem,
  holding: boolean,
): Record<string, string | ((text: string) => boolean)> {
  const expected: Record<string, string | ((text: string) => boolean)> = {
    coin: item.currency_name,
    days: String(item.defi_day),
    apr: grouped(item.defi_earnings),
    remaining: grouped(item.remaining),
    status: en.products.status[item.status],
    // The countdown runs to the real end: its whole days are the days left to end_time.
    countdown: (text) => {
      const days = Number(/^(\d+)d /.exec(text)?.[1] ?? -1);
      const left = Math.floor((item.end_time - Date.now()) / 86_400_000);
      return Math.abs(days - left) <= 1;
    },
    // Join while the user holds none of it, add once they do (on every tab but ended).
    stake: /^0(\.0+)?$/.test(item.defi_number) ? en.products.defi.join : en.products.defi.add,
  };
  if (holding) {
    expected.held = grouped(item.defi_number);
    expected.earnings = grouped(item.earnings_total);
    expected.total = grouped(item.total);
  }
  return expected;
}

function detailsExpected(item: DefiItem): Record<string, string | ((text: string) => boolean)> {
  return {
    capacity: grouped(item.capacity),
    sold: grouped(item.sold),
    cap: item.per_user_cap === null ? en.products.noCap : grouped(item.per_user_cap),
    'early-exit': en.products.defi.exitPolicy[item.early_exit],
    end: timeCheck(item.end_time),
    risk: riskCheck(item),
    stakes: () => true,
  };
}
