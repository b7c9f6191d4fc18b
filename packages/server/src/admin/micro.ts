// The back office of seconds contracts (docs/micro.md, "Back office"): the configuration read from the
// engine and changed only through its journaled commands (setMicroSeconds, setMicroCurrency,
// setMicroExposureCap, setMicroStaleness), the house reserve (the `house` owner's micro wallet) and its
// funding from the house's change wallet (the funding area's `systemTransfer`), and the settled orders from
// the micro_orders and micro_results projections. Every change is audited after the engine has accepted
// it, with the values before and after.
import type { Command, Engine } from '@fairex/engine';
import { ReasonCode, resultCodeName } from '@fairex/engine';
import type {
  MessageKey,
  MicroAdminConfig,
  MicroAdminOrder,
  MicroReserveFunding,
  MicroReserveLine,
  Paged,
} from '@fairex/shared';
import {
  MICRO_ADMIN_ORDERS_PER_PAGE,
  MICRO_RESERVE_FUNDINGS_SHOWN,
  formatDecimal,
  paged,
} from '@fairex/shared';
import { AppError } from '../http/app-error.ts';
import type { SubmittingRunner } from '../engine-runner/submit.ts';
import { submitOrRefuse } from '../engine-runner/submit.ts';
import { MICRO_ORDER_COLUMNS, MICRO_ORDER_FROM, orderView } from '../micro/views.ts';
import type { MicroOrderRow, ViewContext } from '../micro/views.ts';
import type { Queryable } from '../store/index.ts';
import { houseMovements } from '../store/house-movements.ts';
import { recordChange } from './audit-changes.ts';
import type { Actor } from './audit-changes.ts';
import { amountAtScale } from './catalog.ts';

/** The engine's refusals of the configuration and funding commands, in words. */
const REFUSALS: Partial<Record<string, MessageKey>> = {
  invalidField: 'backoffice.micro_invalid',
  invalidId: 'backoffice.micro_invalid',
  invalidAmount: 'backoffice.micro_amounts',
  currencyNotFound: 'backoffice.micro_currency_unknown',
  marketNotFound: 'market.unknown_market',
  insufficientFunds: 'backoffice.micro_change_short',
};

function refusal(code: number): { key: MessageKey; params?: Record<string, string | number> } {
  const key = REFUSALS[resultCodeName(code)];
  return key === undefined ? { key: 'backoffice.engine_refused', params: { code } } : { key };
}

async function submitConfig(runner: SubmittingRunner, command: Command): Promise<void> {
  await submitOrRefuse(runner, command, { refusal });
}

function scaleOf(engine: Engine, currencyId: number): number {
  const currency = engine.ledger.currency(currencyId);
  if (currency === undefined) throw new AppError('backoffice.micro_currency_unknown');
  return currency.scale;
}

function amount(engine: Engine, currencyId: number, minor: bigint): string {
  return formatDecimal(minor, engine.ledger.currency(currencyId)?.scale ?? 0);
}

export function microAdminConfig(engine: Engine, symbolOf: (marketId: number) => string): MicroAdminConfig {
  const config = engine.micro.config();
  const code = (currencyId: number) => engine.ledger.currency(currencyId)?.code ?? String(currencyId);
  return {
    seconds: config.seconds.map((option) => ({
      seconds: option.seconds,
      profit_ratio_bp: option.profitRatioBp,
    })),
    currencies: config.currencies.map((currency) => ({
      currency_id: currency.currencyId,
      code: code(currency.currencyId),
      fee_bp: currency.feeBp,
      min: amount(engine, currency.currencyId, currency.minStake),
      max: amount(engine, currency.currencyId, currency.maxStake),
      presets: currency.presets.map((preset) => amount(engine, currency.currencyId, preset)),
      max_open_orders: currency.maxOpenOrders,
    })),
    caps: config.caps.map((cap) => ({
      market_id: cap.marketId,
      symbol: symbolOf(cap.marketId),
      currency_id: cap.currencyId,
      code: code(cap.currencyId),
      exposure_cap: amount(engine, cap.currencyId, cap.exposureCap),
    })),
    max_sample_age_ms: config.maxSampleAgeMs,
    markets: engine.spot.markets().map((market) => ({
      id: market.marketId,
      symbol: symbolOf(market.marketId),
      quote_currency_id: market.quoteCurrencyId,
    })),
    all_currencies: engine.ledger
      .currencies()
      .map((currency) => ({ id: currency.currencyId, code: currency.code, scale: currency.scale })),
  };
}

export interface MicroChangeContext {
  engine: Engine;
  runner: SubmittingRunner;
  db: Queryable;
  actor: Actor;
}

export async function setSecondsOptions(
  context: MicroChangeContext,
  options: { seconds: number; profit_ratio_bp: number }[],
): Promise<void> {
  const before = context.engine.micro.config().seconds;
  await submitConfig(context.runner, {
    type: 'setMicroSeconds',
    options: options.map((option) => [option.seconds, option.profit_ratio_bp]),
  });
  await recordChange(context.db, context.actor, {
    action: 'micro.seconds',
    targetType: 'micro',
    targetId: 'seconds',
    before: before.map((option) => ({ seconds: option.seconds, profit_ratio_bp: option.profitRatioBp })),
    after: context.engine.micro
      .config()
      .seconds.map((option) => ({ seconds: option.seconds, profit_ratio_bp: option.profitRatioBp })),
  });
}

export interface MicroCurrencyInput {
  currency_id: number;
  fee_bp: number;
  min: string;
  max: string;
  presets: string[];
  max_open_orders: number;
}

function currencyText(engine: Engine, currencyId: number) {
  const current = engine.micro.config().currencies.find((currency) => currency.currencyId === currencyId);
  return current === undefined
    ? null
    : {
        fee_bp: current.feeBp,
        min: amount(engine, currencyId, current.minStake),
        max: amount(engine, currencyId, current.maxStake),
        presets: current.presets.map((preset) => amount(engine, currencyId, preset)),
        max_open_orders: current.maxOpenOrders,
      };
}

export async function setPayableCurrency(
  context: MicroChangeContext,
  input: MicroCurrencyInput,
): Promise<void> {
  const { engine } = context;
  const scale = scaleOf(engine, input.currency_id);
  const before = currencyText(engine, input.currency_id);
  await submitConfig(context.runner, {
    type: 'setMicroCurrency',
    currencyId: input.currency_id,
    feeBp: input.fee_bp,
    minStake: amountAtScale(input.min, scale, 'min'),
    maxStake: amountAtScale(input.max, scale, 'max'),
    presets: input.presets.map((preset) => amountAtScale(preset, scale, 'presets')),
    maxOpenOrders: input.max_open_orders,
  });
  await recordChange(context.db, context.actor, {
    action: 'micro.currency',
    targetType: 'currency',
    targetId: input.currency_id,
    before,
    after: currencyText(engine, input.currency_id),
  });
}

export async function setExposureCap(
  context: MicroChangeContext,
  input: { market_id: number; currency_id: number; exposure_cap: string },
): Promise<void> {
  const { engine } = context;
  const scale = scaleOf(engine, input.currency_id);
  const capOf = () => {
    const cap = engine.micro
      .config()
      .caps.find((line) => line.marketId === input.market_id && line.currencyId === input.currency_id);
    return amount(engine, input.currency_id, cap?.exposureCap ?? 0n);
  };
  const before = capOf();
  await submitConfig(context.runner, {
    type: 'setMicroExposureCap',
    marketId: input.market_id,
    currencyId: input.currency_id,
    exposureCap: amountAtScale(input.exposure_cap, scale, 'exposure_cap'),
  });
  await recordChange(context.db, context.actor, {
    action: 'micro.cap',
    targetType: 'market',
    targetId: input.market_id,
    before: { currency_id: input.currency_id, exposure_cap: before },
    after: { currency_id: input.currency_id, exposure_cap: capOf() },
  });
}

export async function setStaleness(context: MicroChangeContext, maxSampleAgeMs: number): Promise<void> {
  const before = context.engine.micro.config().maxSampleAgeMs;
  await submitConfig(context.runner, { type: 'setMicroStaleness', maxSampleAgeMs });
  await recordChange(context.db, context.actor, {
    action: 'micro.staleness',
    targetType: 'micro',
    targetId: 'staleness',
    before: { max_sample_age_ms: before },
    after: { max_sample_age_ms: context.engine.micro.config().maxSampleAgeMs },
  });
}

/** The reserve per currency: each payable currency, and any other where the house's micro wallet holds funds. */
export function microReserve(engine: Engine): MicroReserveLine[] {
  const payable = new Set(engine.micro.config().currencies.map((currency) => currency.currencyId));
  const lines: MicroReserveLine[] = [];
  for (const currency of engine.ledger.currencies()) {
    const micro = engine.ledger.balance('house', 'micro', currency.currencyId);
    if (!payable.has(currency.currencyId) && micro.available === 0n && micro.locked === 0n) continue;
    const change = engine.ledger.balance('house', 'change', currency.currencyId);
    lines.push({
      currency_id: currency.currencyId,
      code: currency.code,
      available: formatDecimal(micro.available, currency.scale),
      held: formatDecimal(micro.locked, currency.scale),
      change_available: formatDecimal(change.available, currency.scale),
    });
  }
  return lines;
}

/**
 * The reserve's latest fundings from the account log: every change of the house's micro wallet that is not an
 * order's (a transfer between the house's wallets, or money from outside into it as older starts made it).
 */
export async function reserveFundings(db: Queryable, engine: Engine): Promise<MicroReserveFunding[]> {
  return houseMovements(db, engine, {
    wallet: 'micro',
    reasons: [ReasonCode.walletTransfer, ReasonCode.systemFund],
    limit: MICRO_RESERVE_FUNDINGS_SHOWN,
  });
}

/** Moves `amount` from the house's change wallet to its micro wallet (the reserve), journaled, audited. */
export async function fundReserve(
  context: MicroChangeContext,
  input: { currency_id: number; amount: string; note?: string | undefined },
): Promise<{ transfer_id: number; available: string }> {
  const { engine } = context;
  const scale = scaleOf(engine, input.currency_id);
  const minor = amountAtScale(input.amount, scale, 'amount');
  const before = engine.ledger.balance('house', 'micro', input.currency_id).available;
  const { reply } = await submitOrRefuse<{ transferId: number }>(
    context.runner,
    {
      type: 'systemTransfer',
      owner: 'house',
      currencyId: input.currency_id,
      fromWallet: 'change',
      toWallet: 'micro',
      amount: minor,
      memo: `micro reserve (administrator ${context.actor.adminId})`,
    },
    { refusal },
  );
  const after = engine.ledger.balance('house', 'micro', input.currency_id).available;
  await recordChange(context.db, context.actor, {
    action: 'micro.reserve_fund',
    targetType: 'currency',
    targetId: input.currency_id,
    before: { reserve: formatDecimal(before, scale) },
    after: { reserve: formatDecimal(after, scale) },
    detail: {
      amount: formatDecimal(minor, scale),
      transfer_id: reply.transferId,
      ...(input.note === undefined ? {} : { note: input.note }),
    },
  });
  return { transfer_id: reply.transferId, available: formatDecimal(after, scale) };
}

export interface SettledOrdersFilter {
  page: number;
  userId?: number | undefined;
  marketId?: number | undefined;
  outcome?: 'win' | 'loss' | 'draw' | 'void' | undefined;
  fromMs?: number | undefined;
  toMs?: number | undefined;
}

/** Settled orders, newest settlement first, 50 a page, with the links to their proofs. */
export async function settledOrders(
  db: Queryable,
  context: ViewContext,
  filter: SettledOrdersFilter,
): Promise<Paged<MicroAdminOrder>> {
  const conditions = ['r.order_id is not null'];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    conditions.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.userId !== undefined) add('o.user_id = ?', filter.userId);
  if (filter.marketId !== undefined) add('o.market_id = ?', filter.marketId);
  if (filter.outcome !== undefined) add('r.outcome = ?', filter.outcome);
  if (filter.fromMs !== undefined) add('r.settled_ms >= ?', filter.fromMs);
  if (filter.toMs !== undefined) add('r.settled_ms < ?', filter.toMs);
  const where = conditions.join(' and ');
  const { rows: count } = await db.query<{ count: string | number }>(
    `select count(*) as count from ${MICRO_ORDER_FROM} where ${where}`,
    params,
  );
  const perPage = MICRO_ADMIN_ORDERS_PER_PAGE;
  const { rows } = await db.query<MicroOrderRow & { settled_ms: string | number | bigint }>(
    `select ${MICRO_ORDER_COLUMNS}, r.settled_ms from ${MICRO_ORDER_FROM} where ${where}
      order by r.settled_ms desc, o.order_id desc limit ${perPage} offset ${(filter.page - 1) * perPage}`,
    params,
  );
  const orders = rows.map((row): MicroAdminOrder => {
    const view = orderView(context, row);
    return {
      id: view.id,
      user_id: row.user_id,
      match_id: view.match_id,
      symbol_name: view.symbol_name,
      currency_name: view.currency_name,
      type: view.type,
      seconds: view.seconds,
      number: view.number,
      fee: view.fee,
      profit_ratio_bp: row.profit_ratio_bp,
      outcome: row.outcome ?? 'void',
      void_reason: row.void_reason,
      payout: amount(context.engine, row.currency_id, BigInt(row.payout ?? 0)),
      open_price: view.open_price,
      end_price: view.end_price,
      created_time: view.created_time,
      expiry_time: view.expiry_time,
      settled_time: Number(row.settled_ms),
      proof_url: `/api/backoffice/micro/proof?id=${view.id}`,
      public_proof_url: `/api/microtrade/proof?id=${view.id}`,
    };
  });
  return paged(orders, filter.page, perPage, Number(count[0]?.count ?? 0));
}
