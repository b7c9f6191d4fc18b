// The demo products (docs/products.md, "Demo data"), created once at the first start with DEMO=on (demo
// data) when the engine has no products; each starts when it is created, never before: the IEPN token (a catalogue currency, listed for spot as IEPN/USDT), an
// IEPN sale, two miners (a fixed rate and an operator-recorded one) and two defi products. Their house
// accounts are funded from outside with exactly what they promise, as journaled transfers, and then they
// open. Every step is a journaled command; nothing is written to the engine any other way.
import type { Command, Engine, Outcome, ProductTerms } from '@fairex/engine';
import { DAY_MS, dayOf, defiPromise } from '@fairex/engine/calc';
import { parseDecimal } from '@fairex/shared';
import { syncEngineCatalog } from '../services/engine-catalog.ts';
import type { Store } from '../store/index.ts';

export interface DemoSubmitter {
  readonly engine: Engine;
  submit(command: Command): Promise<Outcome>;
}

export const IEPN = { code: 'IEPN', name: 'IEPN Token', scale: 4 };

const TOKEN_DESCRIPTIONS = {
  en: 'IEPN is the demo token of this exchange, sold in its token sale and traded on IEPN/USDT.',
  zh: 'IEPN 是本交易所的演示代币，通过代币发售出售，并在 IEPN/USDT 交易。',
  hk: 'IEPN 是本交易所的示範代幣，透過代幣發售出售，並在 IEPN/USDT 交易。',
  kr: 'IEPN은 이 거래소의 데모 토큰으로, 토큰 세일에서 판매되며 IEPN/USDT에서 거래됩니다.',
  jp: 'IEPN はこの取引所のデモトークンで、トークンセールで販売され、IEPN/USDT で取引されます。',
};

/** Adds IEPN and IEPN/USDT to the catalogue when missing (ids after the highest), then to the engine. */
async function listToken(store: Store, runner: DemoSubmitter): Promise<{ tokenId: number; usdtId: number }> {
  await store.transaction(async (tx) => {
    const { rows: usdtRows } = await tx.query<{ id: number }>(
      `select id from currencies where code = 'USDT'`,
    );
    const usdt = usdtRows[0];
    if (usdt === undefined) throw new Error('the demo products need USDT in the catalogue');
    await tx.query(
      `insert into currencies (id, code, name, scale, udun_id, chains, withdraw_min, withdraw_fee, display_order, descriptions)
       select coalesce(max(id), 0) + 1, $1, $2, $3, -1, '[]'::jsonb, 0, 0, coalesce(max(display_order), 0) + 1, $4::jsonb
         from currencies
        where not exists (select 1 from currencies where code = $1)`,
      [IEPN.code, IEPN.name, IEPN.scale, JSON.stringify(TOKEN_DESCRIPTIONS)],
    );
    const { rows: tokenRows } = await tx.query<{ id: number }>(`select id from currencies where code = $1`, [
      IEPN.code,
    ]);
    const tokenId = (tokenRows[0] as { id: number }).id;
    // Price 4 decimals, lot 1 token (10^4 minor units), minimum value 1 USDT; the spot fees of the other pairs.
    await tx.query(
      `insert into markets (id, base_currency_id, quote_currency_id, symbol, price_scale, price_tick, lot_size, min_size,
                            min_notional, maker_fee_ppm, taker_fee_ppm, is_display, display_order)
       select coalesce(max(id), 0) + 1, $1, $2, $3, 4, 1, $4, $4, $5, 1000, 1000, true, coalesce(max(display_order), 0) + 1
         from markets
        where not exists (select 1 from markets where base_currency_id = $1 and quote_currency_id = $2)`,
      [tokenId, usdt.id, `${IEPN.code}/USDT`, 10n ** BigInt(IEPN.scale), 1_000_000n],
    );
  });
  await syncEngineCatalog(store, runner);
  const currencies = runner.engine.ledger.currencies();
  const token = currencies.find((currency) => currency.code === IEPN.code);
  const usdt = currencies.find((currency) => currency.code === 'USDT');
  if (token === undefined || usdt === undefined) throw new Error('IEPN or USDT is missing from the engine');
  return { tokenId: token.currencyId, usdtId: usdt.currencyId };
}

const blankDetails = { logo: '', white: '', image: '', label: '', description: '' };

function terms(
  overrides: Partial<ProductTerms> & Pick<ProductTerms, 'currencyId' | 'payCurrencyId' | 'totalUnits'>,
  nowMs: number,
): ProductTerms {
  return {
    // A demo product starts at its creation: it cannot have existed before the exchange did.
    startMs: nowMs,
    endMs: nowMs + 180 * DAY_MS,
    unitPrice: 0n,
    feeBp: 0,
    days: 0,
    rateKind: null,
    rateMin: 0n,
    rateMax: 0n,
    aprBp: 0,
    earlyExit: null,
    perUserCap: null,
    ...overrides,
  };
}

/** The demo products' commands (funding, creation, opening, the recorded miner's first rates). */
export function demoProductCommands(
  engine: Engine,
  ids: { tokenId: number; usdtId: number },
  nowMs: number,
): Command[] {
  const btc = engine.ledger.currencies().find((currency) => currency.code === 'BTC');
  if (btc === undefined) return [];
  const usdt = ids.usdtId;
  const usdtScale = engine.ledger.currency(usdt)?.scale ?? 6;
  const amount = (text: string, scale: number) => parseDecimal(text, scale);
  const sale = terms(
    {
      currencyId: ids.tokenId,
      payCurrencyId: usdt,
      totalUnits: 10_000_000n,
      unitPrice: amount('0.1', usdtScale),
      perUserCap: 1_000_000n,
      endMs: nowMs + 90 * DAY_MS,
    },
    nowMs,
  );
  const fixed = terms(
    {
      currencyId: btc.currencyId,
      payCurrencyId: usdt,
      totalUnits: 500n,
      unitPrice: amount('150', usdtScale),
      feeBp: 200,
      days: 30,
      rateKind: 'fixed',
      rateMin: amount('0.00002', btc.scale),
      rateMax: amount('0.00002', btc.scale),
    },
    nowMs,
  );
  const recorded = terms(
    {
      currencyId: btc.currencyId,
      payCurrencyId: usdt,
      totalUnits: 300n,
      unitPrice: amount('120', usdtScale),
      feeBp: 150,
      days: 60,
      rateKind: 'recorded',
      rateMin: amount('0.000015', btc.scale),
      rateMax: amount('0.000025', btc.scale),
      perUserCap: 50n,
    },
    nowMs,
  );
  const flexible = terms(
    {
      currencyId: usdt,
      payCurrencyId: usdt,
      totalUnits: 1_000_000n,
      days: 30,
      aprBp: 800,
      earlyExit: 'forfeit',
    },
    nowMs,
  );
  const locked = terms(
    {
      currencyId: usdt,
      payCurrencyId: usdt,
      totalUnits: 500_000n,
      days: 90,
      aprBp: 1_200,
      earlyExit: 'none',
    },
    nowMs,
  );
  const usdtUnit = 10n ** BigInt(usdtScale);
  const minerFunding =
    fixed.totalUnits * fixed.rateMax * BigInt(fixed.days) +
    recorded.totalUnits * recorded.rateMax * BigInt(recorded.days);
  const defiFunding =
    defiPromise({ principal: flexible.totalUnits * usdtUnit, aprBp: flexible.aprBp, days: flexible.days }) +
    defiPromise({ principal: locked.totalUnits * usdtUnit, aprBp: locked.aprBp, days: locked.days });
  const memo = 'products demo funding';
  const commands: Command[] = [
    {
      type: 'systemFund',
      owner: 'house',
      wallet: 'ico',
      currencyId: ids.tokenId,
      amount: sale.totalUnits * 10n ** BigInt(IEPN.scale),
      memo,
    },
    {
      type: 'systemFund',
      owner: 'house',
      wallet: 'miner',
      currencyId: btc.currencyId,
      amount: minerFunding,
      memo,
    },
    { type: 'systemFund', owner: 'house', wallet: 'defi', currencyId: usdt, amount: defiFunding, memo },
    {
      type: 'createProduct',
      kind: 'ico',
      terms: sale,
      details: { ...blankDetails, title: 'IEPN', description: 'The IEPN token sale.' },
    },
    {
      type: 'createProduct',
      kind: 'miner',
      terms: fixed,
      details: { ...blankDetails, title: 'Antminer S19 Pro', label: '110 TH/s' },
    },
    {
      type: 'createProduct',
      kind: 'miner',
      terms: recorded,
      details: { ...blankDetails, title: 'Whatsminer M50S', label: '126 TH/s' },
    },
    {
      type: 'createProduct',
      kind: 'defi',
      terms: flexible,
      details: { ...blankDetails, title: 'USDT 30 days' },
    },
    {
      type: 'createProduct',
      kind: 'defi',
      terms: locked,
      details: { ...blankDetails, title: 'USDT 90 days' },
    },
  ];
  return commands;
}

/**
 * Creates and opens the demo products when the engine has none; returns how many it opened. The recorded
 * miner's rate for the next day is recorded too (at the middle of its range), as an operator would.
 */
export async function applyDemoProducts(
  store: Store,
  runner: DemoSubmitter,
  nowMs = Date.now(),
): Promise<number> {
  if (runner.engine.products.products().length > 0) return 0;
  const ids = await listToken(store, runner);
  const commands = demoProductCommands(runner.engine, ids, nowMs);
  const created: number[] = [];
  for (const command of commands) {
    const outcome = await runner.submit(command);
    if (outcome.code !== 0)
      throw new Error(`the engine refused ${command.type} (result code ${outcome.code})`);
    if (command.type === 'createProduct') created.push((outcome.reply as { productId: number }).productId);
  }
  for (const productId of created) {
    const outcome = await runner.submit({ type: 'openProduct', productId });
    if (outcome.code !== 0)
      throw new Error(`the engine refused to open product ${productId} (${outcome.code})`);
  }
  const recorded = runner.engine.products.products().find((product) => product.terms.rateKind === 'recorded');
  if (recorded !== undefined) {
    const middle = (recorded.terms.rateMin + recorded.terms.rateMax) / 2n;
    await runner.submit({
      type: 'recordMinerRate',
      productId: recorded.productId,
      day: dayOf(nowMs) + 1,
      perUnit: middle,
    });
  }
  return created.length;
}
