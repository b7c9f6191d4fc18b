// Currencies and trading pairs: the SQL catalogue joined with what the engine trades.
//
// The engine learns currencies and markets only through journaled commands, and it has commands for adding
// them and for changing a market's fees, nothing else. So an operator can add a currency or a pair, change
// fees, and change everything the engine does not hold (names, withdrawal minimum and fee, custody id,
// descriptions, display, order, minimum order value); a currency's scale and a pair's tick and lot are fixed
// once the engine has them, because orders and balances were written in those units.
//
// Order of writes: a new currency or pair goes to the engine first, then to SQL with its audit entry; if the
// SQL write fails, the engine holds an item nobody sees and the operator's retry completes it. A fee change
// goes to SQL with its audit entry first, then to the engine; if the engine step fails, the next start makes
// the engine match SQL (services/engine-catalog.ts). Either way the catalogue and the audit log agree.
import type { Command, Engine, Outcome } from '@fairex/engine';
import { MAX_FEE_PPM } from '@fairex/engine';
import { formatDecimal, LANGUAGES } from '@fairex/shared';
import { engineRefused, submitOrRefuse as submitAndInsist } from '../engine-runner/submit.ts';
import { AppError } from '../http/app-error.ts';
import type { Queryable, Store } from '../store/index.ts';
import type { Actor } from './audit-changes.ts';
import { changedFields, recordChange } from './audit-changes.ts';
import type { CurrencyLine, Descriptions, MarketLine } from '@fairex/shared';

export type { CurrencyLine, Descriptions, MarketLine } from '@fairex/shared';

export interface CatalogRunner {
  readonly engine: Engine;
  submit(command: Command, options?: { idempotencyKey?: string }): Promise<Outcome>;
}

/** Fees are entered as percent with up to four decimals: 0.0001 % is one part per million. */
export const FEE_PERCENT_SCALE = 4;
export const MAX_FEE_PERCENT = formatDecimal(BigInt(MAX_FEE_PPM), FEE_PERCENT_SCALE, { trim: true });
export { MAX_CATALOG_SCALE } from '@fairex/shared';

interface CurrencyRow {
  id: number;
  code: string;
  name: string;
  scale: number;
  udun_id: number;
  withdraw_min: string;
  withdraw_fee: string;
  display_order: number;
  descriptions: Descriptions;
  logo: string | null;
  is_enabled: boolean;
  chains: string[] | null;
}

const CURRENCY_SELECT = `select c.id, c.code, c.name, c.scale, c.udun_id, c.withdraw_min::text, c.withdraw_fee::text,
    c.display_order, c.descriptions, c.logo, c.is_enabled,
    (select array_agg(ch.code order by ch.chain_type) from wallet_chains ch where ch.currency_id = c.id) as chains
  from currencies c`;

function currencyLine(row: CurrencyRow, engine: Engine): CurrencyLine {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    scale: row.scale,
    udun_id: row.udun_id,
    withdraw_min: formatDecimal(BigInt(row.withdraw_min), row.scale),
    withdraw_fee: formatDecimal(BigInt(row.withdraw_fee), row.scale),
    display_order: row.display_order,
    descriptions: row.descriptions,
    logo: row.logo,
    is_enabled: row.is_enabled,
    chains: row.chains ?? [],
    in_engine: engine.ledger.currency(row.id) !== undefined,
  };
}

export async function listCurrencies(db: Queryable, engine: Engine): Promise<CurrencyLine[]> {
  const { rows } = await db.query<CurrencyRow>(`${CURRENCY_SELECT} order by c.display_order, c.id`);
  return rows.map((row) => currencyLine(row, engine));
}

async function currencyRow(db: Queryable, id: number, lock = false): Promise<CurrencyRow> {
  const { rows } = await db.query<CurrencyRow>(
    `${CURRENCY_SELECT} where c.id = $1${lock ? ' for update of c' : ''}`,
    [id],
  );
  const row = rows[0];
  if (!row) throw new AppError('wallet.currency_unknown');
  return row;
}

/** Parses a decimal given at the API edge at the currency's scale, refusing with the field's name. */
export function amountAtScale(text: string, scale: number, field: string): bigint {
  const match = /^(\d{1,24})(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw new AppError('validation.decimal', { field });
  const fraction = match[2] ?? '';
  if (fraction.length > scale) throw new AppError('validation.decimal_scale', { field, scale });
  return BigInt((match[1] ?? '0') + fraction.padEnd(scale, '0'));
}

export function cleanDescriptions(input: Descriptions): Descriptions {
  const result: Descriptions = {};
  for (const lang of LANGUAGES) {
    const text = input[lang]?.trim();
    if (text) result[lang] = text;
  }
  return result;
}

export interface CurrencyUpdate {
  name?: string | undefined;
  udunId?: number | undefined;
  withdrawMin?: string | undefined;
  withdrawFee?: string | undefined;
  displayOrder?: number | undefined;
  isEnabled?: boolean | undefined;
  descriptions?: Descriptions | undefined;
}

export async function updateCurrency(
  store: Store,
  engine: Engine,
  actor: Actor,
  id: number,
  update: CurrencyUpdate,
): Promise<CurrencyLine> {
  return store.transaction(async (tx) => {
    const row = await currencyRow(tx, id, true);
    const current = currencyLine(row, engine);
    const next = {
      name: update.name,
      udun_id: update.udunId,
      withdraw_min:
        update.withdrawMin === undefined
          ? undefined
          : formatDecimal(amountAtScale(update.withdrawMin, row.scale, 'withdraw_min'), row.scale),
      withdraw_fee:
        update.withdrawFee === undefined
          ? undefined
          : formatDecimal(amountAtScale(update.withdrawFee, row.scale, 'withdraw_fee'), row.scale),
      display_order: update.displayOrder,
      is_enabled: update.isEnabled,
      descriptions: update.descriptions === undefined ? undefined : cleanDescriptions(update.descriptions),
    };
    const { before, after } = changedFields(current as unknown as Record<string, unknown>, next);
    if (Object.keys(after).length === 0) throw new AppError('backoffice.nothing_changed');
    const merged = { ...current, ...after } as CurrencyLine;
    await tx.query(
      `update currencies set name = $2, udun_id = $3, withdraw_min = $4, withdraw_fee = $5, display_order = $6,
              is_enabled = $7, descriptions = $8::jsonb
        where id = $1`,
      [
        id,
        merged.name,
        merged.udun_id,
        amountAtScale(merged.withdraw_min, row.scale, 'withdraw_min').toString(),
        amountAtScale(merged.withdraw_fee, row.scale, 'withdraw_fee').toString(),
        merged.display_order,
        merged.is_enabled,
        JSON.stringify(merged.descriptions),
      ],
    );
    await recordChange(tx, actor, {
      action: 'currency.update',
      targetType: 'currency',
      targetId: id,
      before,
      after,
      detail: { code: row.code },
    });
    return merged;
  });
}

export interface NewCurrency {
  id: number;
  code: string;
  name: string;
  scale: number;
  udunId: number;
  withdrawMin: string;
  withdrawFee: string;
  displayOrder: number;
  descriptions: Descriptions;
}

/**
 * Submits a catalogue command without an idempotency key: a repeat is refused by the engine itself (the id
 * exists), and a refused attempt must not pin its refusal to a retry with corrected settings.
 */
async function submitOrRefuse(runner: CatalogRunner, command: Command): Promise<void> {
  await submitAndInsist(runner, command, { refusal: engineRefused });
}

export async function addCurrency(
  store: Store,
  runner: CatalogRunner,
  actor: Actor,
  input: NewCurrency,
): Promise<void> {
  const withdrawMin = amountAtScale(input.withdrawMin, input.scale, 'withdraw_min');
  const withdrawFee = amountAtScale(input.withdrawFee, input.scale, 'withdraw_fee');
  const { rows } = await store.query<{ id: number }>('select id from currencies where id = $1 or code = $2', [
    input.id,
    input.code,
  ]);
  if (rows.length > 0) throw new AppError('backoffice.currency_exists');
  const known = runner.engine.ledger.currency(input.id);
  if (known === undefined) {
    await submitOrRefuse(runner, {
      type: 'addCurrency',
      currencyId: input.id,
      code: input.code,
      scale: input.scale,
    });
  } else if (known.code !== input.code || known.scale !== input.scale) {
    // An earlier attempt reached the engine with other settings; those are fixed now.
    throw new AppError('backoffice.currency_exists');
  }
  const descriptions = cleanDescriptions(input.descriptions);
  await store.transaction(async (tx) => {
    await tx.query(
      `insert into currencies (id, code, name, scale, udun_id, withdraw_min, withdraw_fee, display_order, descriptions)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)`,
      [
        input.id,
        input.code,
        input.name,
        input.scale,
        input.udunId,
        withdrawMin.toString(),
        withdrawFee.toString(),
        input.displayOrder,
        JSON.stringify(descriptions),
      ],
    );
    await recordChange(tx, actor, {
      action: 'currency.create',
      targetType: 'currency',
      targetId: input.id,
      after: {
        code: input.code,
        name: input.name,
        scale: input.scale,
        udun_id: input.udunId,
        withdraw_min: formatDecimal(withdrawMin, input.scale),
        withdraw_fee: formatDecimal(withdrawFee, input.scale),
        display_order: input.displayOrder,
        descriptions,
      },
    });
  });
}

// ------------------------------------------------------------------------------------------------ markets

interface MarketRow {
  id: number;
  symbol: string;
  base_currency_id: number;
  quote_currency_id: number;
  base_scale: number;
  quote_scale: number;
  price_scale: number;
  price_tick: string;
  lot_size: string;
  min_size: string;
  min_notional: string;
  maker_fee_ppm: number;
  taker_fee_ppm: number;
  is_display: boolean;
  display_order: number;
}

const MARKET_SELECT = `select m.id, m.symbol, m.base_currency_id, m.quote_currency_id, b.scale as base_scale,
    q.scale as quote_scale, m.price_scale, m.price_tick::text, m.lot_size::text, m.min_size::text,
    m.min_notional::text, m.maker_fee_ppm, m.taker_fee_ppm, m.is_display, m.display_order
  from markets m join currencies b on b.id = m.base_currency_id join currencies q on q.id = m.quote_currency_id`;

export function feePercent(ppm: number): string {
  return formatDecimal(BigInt(ppm), FEE_PERCENT_SCALE, { trim: true });
}

/** A fee in percent text ("0.1") as parts per million, refused above the engine's ceiling. */
export function feePpm(text: string, field: string): number {
  const ppm = amountAtScale(text, FEE_PERCENT_SCALE, field);
  if (ppm > BigInt(MAX_FEE_PPM))
    throw new AppError('backoffice.fee_too_high', { field, max: MAX_FEE_PERCENT });
  return Number(ppm);
}

function marketLine(row: MarketRow, engine: Engine): MarketLine {
  const view = engine.spot.market(row.id);
  const index = engine.market.indexPrice(row.id);
  const tickUnits = BigInt(row.price_tick);
  return {
    id: row.id,
    symbol: row.symbol,
    base_currency_id: row.base_currency_id,
    quote_currency_id: row.quote_currency_id,
    price_scale: row.price_scale,
    tick_size: formatDecimal(tickUnits, row.price_scale),
    lot_size: formatDecimal(BigInt(row.lot_size), row.base_scale),
    min_size: formatDecimal(BigInt(row.min_size), row.base_scale),
    min_notional: formatDecimal(BigInt(row.min_notional), row.quote_scale),
    maker_fee: feePercent(row.maker_fee_ppm),
    taker_fee: feePercent(row.taker_fee_ppm),
    is_display: row.is_display,
    display_order: row.display_order,
    engine:
      view === undefined
        ? null
        : {
            maker_fee: feePercent(view.makerFeePpm),
            taker_fee: feePercent(view.takerFeePpm),
            tick_size: view.tickSize,
            lot_size: view.lotSize,
            minimum_lots: view.minimumLots,
          },
    index_price:
      index === undefined ? null : formatDecimal(BigInt(index.priceTicks) * tickUnits, row.price_scale),
    index_time: index === undefined ? null : new Date(index.timeMs).toISOString(),
  };
}

export async function listMarkets(db: Queryable, engine: Engine): Promise<MarketLine[]> {
  const { rows } = await db.query<MarketRow>(`${MARKET_SELECT} order by m.display_order, m.id`);
  return rows.map((row) => marketLine(row, engine));
}

async function marketRow(db: Queryable, id: number, lock = false): Promise<MarketRow> {
  const { rows } = await db.query<MarketRow>(
    `${MARKET_SELECT} where m.id = $1${lock ? ' for update of m' : ''}`,
    [id],
  );
  const row = rows[0];
  if (!row) throw new AppError('spot.market_not_found');
  return row;
}

export interface MarketUpdate {
  makerFee?: string | undefined;
  takerFee?: string | undefined;
  isDisplay?: boolean | undefined;
  displayOrder?: number | undefined;
  minNotional?: string | undefined;
}

/** Changes a pair; new fees reach the engine through its setMarketFees command once SQL has them. */
export async function updateMarket(
  store: Store,
  runner: CatalogRunner,
  actor: Actor,
  id: number,
  update: MarketUpdate,
): Promise<MarketLine> {
  const makerPpm = update.makerFee === undefined ? undefined : feePpm(update.makerFee, 'maker_fee');
  const takerPpm = update.takerFee === undefined ? undefined : feePpm(update.takerFee, 'taker_fee');
  const row = await store.transaction(async (tx) => {
    const current = await marketRow(tx, id, true);
    const minNotional =
      update.minNotional === undefined
        ? undefined
        : amountAtScale(update.minNotional, current.quote_scale, 'min_notional');
    const { before, after } = changedFields(
      {
        maker_fee: feePercent(current.maker_fee_ppm),
        taker_fee: feePercent(current.taker_fee_ppm),
        is_display: current.is_display,
        display_order: current.display_order,
        min_notional: formatDecimal(BigInt(current.min_notional), current.quote_scale),
      },
      {
        maker_fee: makerPpm === undefined ? undefined : feePercent(makerPpm),
        taker_fee: takerPpm === undefined ? undefined : feePercent(takerPpm),
        is_display: update.isDisplay,
        display_order: update.displayOrder,
        min_notional: minNotional === undefined ? undefined : formatDecimal(minNotional, current.quote_scale),
      },
    );
    if (Object.keys(after).length === 0) throw new AppError('backoffice.nothing_changed');
    await tx.query(
      `update markets set maker_fee_ppm = coalesce($2, maker_fee_ppm), taker_fee_ppm = coalesce($3, taker_fee_ppm),
              is_display = coalesce($4, is_display), display_order = coalesce($5, display_order),
              min_notional = coalesce($6, min_notional)
        where id = $1`,
      [
        id,
        makerPpm ?? null,
        takerPpm ?? null,
        update.isDisplay ?? null,
        update.displayOrder ?? null,
        minNotional?.toString() ?? null,
      ],
    );
    await recordChange(tx, actor, {
      action: 'market.update',
      targetType: 'market',
      targetId: id,
      before,
      after,
      detail: { symbol: current.symbol },
    });
    return marketRow(tx, id);
  });
  const view = runner.engine.spot.market(id);
  if (
    view !== undefined &&
    (view.makerFeePpm !== row.maker_fee_ppm || view.takerFeePpm !== row.taker_fee_ppm)
  ) {
    await submitOrRefuse(runner, {
      type: 'setMarketFees',
      marketId: id,
      makerFeePpm: row.maker_fee_ppm,
      takerFeePpm: row.taker_fee_ppm,
    });
  }
  return marketLine(row, runner.engine);
}

export interface NewMarket {
  id: number;
  baseCurrencyId: number;
  quoteCurrencyId: number;
  priceScale: number;
  tickSize: string;
  lotSize: string;
  minSize: string;
  minNotional: string;
  makerFee: string;
  takerFee: string;
  isDisplay: boolean;
  displayOrder: number;
}

export async function addMarket(
  store: Store,
  runner: CatalogRunner,
  actor: Actor,
  input: NewMarket,
): Promise<void> {
  if (input.baseCurrencyId === input.quoteCurrencyId) throw new AppError('backoffice.market_same_currency');
  const base = await currencyRow(store, input.baseCurrencyId);
  const quote = await currencyRow(store, input.quoteCurrencyId);
  const symbol = `${base.code}/${quote.code}`;
  const tick = amountAtScale(input.tickSize, input.priceScale, 'tick_size');
  const lot = amountAtScale(input.lotSize, base.scale, 'lot_size');
  const minSize = amountAtScale(input.minSize, base.scale, 'min_size');
  const minNotional = amountAtScale(input.minNotional, quote.scale, 'min_notional');
  if (tick <= 0n) throw new AppError('validation.decimal_positive', { field: 'tick_size' });
  if (lot <= 0n) throw new AppError('validation.decimal_positive', { field: 'lot_size' });
  if (minSize < lot || minSize % lot !== 0n) throw new AppError('backoffice.min_size_lots');
  const makerFeePpm = feePpm(input.makerFee, 'maker_fee');
  const takerFeePpm = feePpm(input.takerFee, 'taker_fee');
  const { rows } = await store.query('select 1 from markets where id = $1 or symbol = $2', [
    input.id,
    symbol,
  ]);
  if (rows.length > 0) throw new AppError('backoffice.market_exists');
  if (
    runner.engine.ledger.currency(base.id) === undefined ||
    runner.engine.ledger.currency(quote.id) === undefined
  ) {
    throw new AppError('backoffice.currency_not_in_engine');
  }
  const tickSize = formatDecimal(tick, input.priceScale);
  const lotSize = formatDecimal(lot, base.scale);
  const existing = runner.engine.spot.market(input.id);
  if (existing === undefined) {
    await submitOrRefuse(runner, {
      type: 'addMarket',
      marketId: input.id,
      baseCurrencyId: base.id,
      quoteCurrencyId: quote.id,
      tickSize,
      lotSize,
      minimumLots: Number(minSize / lot),
      makerFeePpm,
      takerFeePpm,
    });
  } else if (
    // An earlier attempt reached the engine but not SQL: only the same pair with the same units completes it.
    existing.baseCurrencyId !== base.id ||
    existing.quoteCurrencyId !== quote.id ||
    existing.tickSize !== tickSize ||
    existing.lotSize !== lotSize
  ) {
    throw new AppError('backoffice.market_exists');
  }
  await store.transaction(async (tx) => {
    await tx.query(
      `insert into markets (id, base_currency_id, quote_currency_id, symbol, price_scale, price_tick, lot_size, min_size,
                            min_notional, maker_fee_ppm, taker_fee_ppm, is_display, display_order)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        input.id,
        base.id,
        quote.id,
        symbol,
        input.priceScale,
        tick.toString(),
        lot.toString(),
        minSize.toString(),
        minNotional.toString(),
        makerFeePpm,
        takerFeePpm,
        input.isDisplay,
        input.displayOrder,
      ],
    );
    await recordChange(tx, actor, {
      action: 'market.create',
      targetType: 'market',
      targetId: input.id,
      after: {
        symbol,
        tick_size: formatDecimal(tick, input.priceScale),
        lot_size: formatDecimal(lot, base.scale),
        min_size: formatDecimal(minSize, base.scale),
        min_notional: formatDecimal(minNotional, quote.scale),
        maker_fee: feePercent(makerFeePpm),
        taker_fee: feePercent(takerFeePpm),
        is_display: input.isDisplay,
        display_order: input.displayOrder,
      },
    });
  });
}
