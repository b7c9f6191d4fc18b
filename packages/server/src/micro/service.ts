// The seconds-contract calls' work: reading the configuration from the engine, submitting orders, listing a
// user's orders and serving a settled order's proof from the micro_orders and micro_results projections and the price record.
import type { Command, Engine, EngineEvent } from '@fairex/engine';
import {
  MICRO_INDEX_RULE_VERSION,
  MICRO_RULE_VERSION,
  MicroReasonCode,
  MicroResultCode,
  ownerKeyOf,
  resultCodeName,
} from '@fairex/engine';
import type {
  MessageKey,
  MicroPayableCurrency,
  MicroProof,
  MicroSecondsReply,
  MicroStatsDay,
  PriceSourceKind,
} from '@fairex/shared';
import { MICRO_LIST_LIMIT, formatDecimal, paged, tryParseDecimal } from '@fairex/shared';
import { PUBLIC_MINIMUM_ACCOUNTS } from '@fairex/shared/api/site.ts';
import type { EngineRunner } from '../engine-runner/index.ts';
import { AppError } from '../http/app-error.ts';
import type { MarketInfo } from '../market/market-catalog.ts';
import type { PriceSourcePolicy } from '../market/price-source-kind.ts';
import { proofOf } from '../market/price-record.ts';
import type { Queryable } from '../store/index.ts';
import { submitOrRefuse } from '../engine-runner/submit.ts';
import { MICRO_ORDER_COLUMNS, MICRO_ORDER_FROM, orderView, percentText, proofSample } from './views.ts';
import type { MicroOrderListItem, MicroOrderRow, ViewContext } from './views.ts';

/** Spec 02 section 9: the default payable currency id. */
export const DEFAULT_PAYABLE_CURRENCY_ID = 3;

/** The published rule in words (docs/micro.md), served with every proof of rule fairex-micro-v2. */
export const MICRO_RULE_TEXT =
  'open = first sample strictly after acceptance; end = last sample at or before expiry (acceptance + ' +
  'seconds); both compared by their recorded index price (the median of the fresh sources, not smoothed); ' +
  'void (stake and fee refunded) when the open sample is missing, stale, without an index, later than ' +
  'max_sample_age_ms after acceptance or after expiry, or the end sample is stale, without an index or ' +
  'older than max_sample_age_ms at expiry; otherwise up wins when end > open, down when end < open, ' +
  'a draw refunds the stake; a win pays stake + floor(stake x profit_ratio_bp / 10000); the fee is ' +
  'floor(stake x fee_bp / 10000), refunded only on a void. New orders are refused while the price is stale.';

/** Rule fairex-micro-v1, which orders journaled before v2 settled by: the same on the samples' mark. */
export const MICRO_MARK_RULE_TEXT =
  'open = first mark sample strictly after acceptance; end = last mark sample at or before expiry ' +
  '(acceptance + seconds); void (stake and fee refunded) when the open sample is missing, stale, without a ' +
  'mark, later than max_sample_age_ms after acceptance or after expiry, or the end sample is stale, without a ' +
  'mark or older than max_sample_age_ms at expiry; otherwise up wins when end > open, down when end < open, ' +
  'a draw refunds the stake; a win pays stake + floor(stake x profit_ratio_bp / 10000); the fee is ' +
  'floor(stake x fee_bp / 10000), refunded only on a void.';

const REFUSALS: Partial<Record<string, MessageKey>> = {
  microSecondsNotOffered: 'micro.seconds_not_offered',
  microCurrencyNotPayable: 'micro.currency_not_payable',
  microPairNotOpen: 'micro.pair_not_open',
  microExposureCapReached: 'micro.exposure_cap',
  microPriceStale: 'micro.price_stale',
  microStakeOutOfRange: 'micro.stake_out_of_range',
  insufficientFunds: 'micro.insufficient_balance',
  houseInsufficientFunds: 'micro.reserve_short',
  tooManyOpenOrders: 'micro.too_many_open',
  marketNotFound: 'market.unknown_market',
  invalidId: 'market.unknown_market',
  currencyNotFound: 'micro.currency_not_payable',
  invalidOwner: 'auth.login_required',
};

/** The area's own result codes (MicroResultCode) by number; the shared ones are named by resultCodeName. */
const microCodeNames = new Map<number, string>(
  Object.entries(MicroResultCode).map(([name, code]) => [code, name]),
);

export function microRefusalKey(code: number): MessageKey {
  return REFUSALS[microCodeNames.get(code) ?? resultCodeName(code)] ?? 'micro.refused';
}

/** The engine's reply to an accepted submitMicroOrder. */
type MicroSubmitReply = {
  orderId: number;
  acceptedMs: number;
  expiryMs: number;
  stake: bigint;
  fee: bigint;
  profitRatioBp: number;
};

export type MicroRunner = Pick<EngineRunner<Command, EngineEvent, Engine>, 'submit' | 'engine'>;

function presetsOf(engine: Engine, currencyId: number, presets: readonly bigint[]): { number: string }[] {
  const scale = engine.ledger.currency(currencyId)?.scale ?? 0;
  return presets.map((preset) => ({ number: formatDecimal(preset, scale) }));
}

export function secondsReply(engine: Engine): MicroSecondsReply {
  const config = engine.micro.config();
  const currency =
    config.currencies.find((candidate) => candidate.currencyId === DEFAULT_PAYABLE_CURRENCY_ID) ??
    config.currencies[0];
  return {
    seconds: config.seconds.map((option) => ({
      seconds: option.seconds,
      profit_ratio: percentText(option.profitRatioBp),
    })),
    numbers: currency === undefined ? [] : presetsOf(engine, currency.currencyId, currency.presets),
  };
}

export function payableCurrencies(engine: Engine, userId: number | null): MicroPayableCurrency[] {
  return engine.micro
    .config()
    .currencies.filter((currency) => currency.maxOpenOrders > 0)
    .map((currency) => {
      const scale = engine.ledger.currency(currency.currencyId)?.scale ?? 0;
      const balance = userId === null ? null : engine.ledger.balance(userId, 'micro', currency.currencyId);
      return {
        id: currency.currencyId,
        name: engine.ledger.currency(currency.currencyId)?.code ?? '',
        micro_numbers: presetsOf(engine, currency.currencyId, currency.presets),
        micro_trade_fee: percentText(currency.feeBp),
        micro_min: formatDecimal(currency.minStake, scale),
        micro_max: formatDecimal(currency.maxStake, scale),
        max_open_orders: currency.maxOpenOrders,
        user_wallet:
          balance === null
            ? null
            : {
                micro_balance: formatDecimal(balance.available, scale),
                lock_micro_balance: formatDecimal(balance.locked, scale),
              },
      };
    });
}

export interface SubmitInput {
  userId: number;
  market: MarketInfo;
  currencyId: number;
  direction: 1 | 2;
  seconds: number;
  number: string;
}

/**
 * Submits a new order: refused on simulated prices outside the demo (`policy`), and by the engine while the
 * price is stale. Every order settles on the recorded index (rule fairex-micro-v2).
 */
export async function submitMicro(
  runner: MicroRunner,
  context: ViewContext,
  input: SubmitInput,
  policy?: Pick<PriceSourcePolicy, 'checkOpen'>,
): Promise<MicroOrderListItem> {
  policy?.checkOpen();
  const engine = runner.engine;
  const currency = engine.ledger.currency(input.currencyId);
  const config = engine.micro.config().currencies.find((c) => c.currencyId === input.currencyId);
  if (currency === undefined || config === undefined) throw new AppError('micro.currency_not_payable');
  const parsed = tryParseDecimal(input.number, currency.scale, { min: 1n });
  if (!parsed.ok)
    throw new AppError(
      parsed.code === 'scale' ? 'validation.decimal_scale' : 'micro.stake_out_of_range',
      parsed.code === 'scale'
        ? { scale: currency.scale }
        : {
            min: formatDecimal(config.minStake, currency.scale),
            max: formatDecimal(config.maxStake, currency.scale),
          },
    );
  const stakeRange = {
    min: formatDecimal(config.minStake, currency.scale),
    max: formatDecimal(config.maxStake, currency.scale),
  };
  const { reply } = await submitOrRefuse<MicroSubmitReply>(
    runner,
    {
      type: 'submitMicroOrder',
      userId: input.userId,
      marketId: input.market.marketId,
      currencyId: input.currencyId,
      direction: input.direction,
      seconds: input.seconds,
      stake: parsed.value,
      settleOn: 'index',
    },
    {
      refusal: (code) => {
        const key = microRefusalKey(code);
        return key === 'micro.stake_out_of_range' ? { key, params: stakeRange } : { key };
      },
    },
  );
  return orderView(context, {
    order_id: reply.orderId,
    user_id: input.userId,
    market_id: input.market.marketId,
    currency_id: input.currencyId,
    direction: input.direction,
    seconds: input.seconds,
    profit_ratio_bp: reply.profitRatioBp,
    stake: reply.stake,
    fee: reply.fee,
    accepted_ms: reply.acceptedMs,
    expiry_ms: reply.expiryMs,
    status: 1,
    outcome: null,
    void_reason: null,
    max_sample_age_ms: null,
    payout: null,
    fee_refund: null,
    rule_version: null,
    open_seq: null,
    open_time_ms: null,
    open_mark_ticks: null,
    open_index_ticks: null,
    open_stale: null,
    open_hash: null,
    end_seq: null,
    end_time_ms: null,
    end_mark_ticks: null,
    end_index_ticks: null,
    end_stale: null,
    end_hash: null,
  });
}

export async function listMicroOrders(
  db: Queryable,
  context: ViewContext,
  userId: number,
  options: { page: number; status?: 1 | 3; marketId?: number; limit: number },
) {
  const conditions = ['o.user_id = $1'];
  const params: unknown[] = [userId];
  if (options.status !== undefined)
    conditions.push(options.status === 3 ? 'r.order_id is not null' : 'r.order_id is null');
  if (options.marketId !== undefined) {
    params.push(options.marketId);
    conditions.push(`o.market_id = $${params.length}`);
  }
  const where = conditions.join(' and ');
  const total = Number(
    (
      await db.query<{ count: string | number }>(
        `select count(*) as count from ${MICRO_ORDER_FROM} where ${where}`,
        params,
      )
    ).rows[0]?.count ?? 0,
  );
  const limit = Math.min(options.limit, MICRO_LIST_LIMIT);
  const { rows } = await db.query<MicroOrderRow>(
    `select ${MICRO_ORDER_COLUMNS} from ${MICRO_ORDER_FROM} where ${where}
      order by o.order_id desc limit ${limit} offset ${(options.page - 1) * limit}`,
    params,
  );
  return paged(
    rows.map((row) => orderView(context, row)),
    options.page,
    limit,
    total,
  );
}

/** A settled order's proof: the rule, the two samples and the chain from the open sample to a published head. */
export async function microProof(
  db: Queryable,
  context: ViewContext,
  market: (marketId: number) => MarketInfo | undefined,
  /** The owner the order must belong to; null for the back office, which reads any user's order. */
  userId: number | null,
  orderId: number,
  /** The price source's kind now: what a proof without a chain yet says about its prices. */
  sourceKind: PriceSourceKind = 'simulated',
): Promise<MicroProof> {
  const { rows } = await db.query<MicroOrderRow>(
    userId === null
      ? `select ${MICRO_ORDER_COLUMNS} from ${MICRO_ORDER_FROM} where o.order_id = $1`
      : `select ${MICRO_ORDER_COLUMNS} from ${MICRO_ORDER_FROM} where o.order_id = $1 and o.user_id = $2`,
    userId === null ? [orderId] : [orderId, userId],
  );
  const row = rows[0];
  if (row === undefined) throw new AppError('micro.unknown_order');
  if (row.status !== 3) throw new AppError('micro.not_settled');
  const engine = context.engine;
  const view = orderView(context, row);
  const open = proofSample(engine, row, 'open');
  const end = proofSample(engine, row, 'end');
  const info = market(row.market_id);
  let proof: MicroProof['proof'] = null;
  const last = end ?? open;
  if (info !== undefined && last !== null) {
    // One read: the market's samples from the open sample through the end sample to the first head at or
    // after it.
    const covering = await proofOf(db, engine, info, last.seq, open?.seq ?? last.seq);
    if (covering.kind === 'proof') proof = { head: covering.head, samples: covering.samples };
  }
  const ruleVersion = row.rule_version ?? MICRO_INDEX_RULE_VERSION;
  const onIndex = ruleVersion !== MICRO_RULE_VERSION;
  // The samples name their sources: a chain with the simulator's is simulated prices, whatever runs now.
  const simulated =
    proof === null
      ? sourceKind === 'simulated'
      : proof.samples.some((sample) => sample.sources.some((source) => source.name === 'simulated'));
  return {
    id: view.id,
    symbol: view.symbol_name,
    rule_version: ruleVersion,
    rule: onIndex ? MICRO_RULE_TEXT : MICRO_MARK_RULE_TEXT,
    settles_on: onIndex ? 'index' : 'mark',
    simulated_prices: simulated,
    type: view.type,
    seconds: row.seconds,
    profit_ratio: view.profit_ratio,
    number: view.number,
    fee: view.fee,
    currency_name: view.currency_name,
    accepted_time: view.created_time,
    expiry_time: view.expiry_time,
    max_sample_age_ms: row.max_sample_age_ms ?? 0,
    outcome: row.outcome ?? 'void',
    void_reason: row.void_reason,
    payout: formatDecimal(BigInt(row.payout ?? 0), engine.ledger.currency(row.currency_id)?.scale ?? 0),
    fee_refund: formatDecimal(
      BigInt(row.fee_refund ?? 0),
      engine.ledger.currency(row.currency_id)?.scale ?? 0,
    ),
    open,
    end,
    proof,
  };
}

/**
 * Public daily figures by Asia/Shanghai day: orders, outcomes and voids, and the house's result from the
 * ledger.
 */
export async function microStats(
  db: Queryable,
  engine: Engine,
  days: number,
  nowMs: number,
  /** Days with orders from fewer accounts (but some) publish no figure: PUBLIC_MINIMUM_ACCOUNTS. */
  minimumAccounts: number = PUBLIC_MINIMUM_ACCOUNTS,
): Promise<MicroStatsDay[]> {
  const dayMs = 86_400_000;
  const shift = 8 * 3_600_000;
  const fromMs = Math.floor((nowMs + shift) / dayMs) * dayMs - shift - (days - 1) * dayMs;
  // The counts from the settled orders' records...
  const { rows } = await db.query<{
    day: string | number;
    currency_id: number;
    orders: string | number;
    wins: string | number;
    losses: string | number;
    draws: string | number;
    voids: string | number;
    accounts: string | number;
  }>(
    `select floor((settled_ms + ${shift}) / ${dayMs}) as day, currency_id, count(*) as orders,
            count(distinct user_id) filter (where user_id not in (select id from users where is_demo)) as accounts,
            count(*) filter (where outcome = 'win') as wins, count(*) filter (where outcome = 'loss') as losses,
            count(*) filter (where outcome = 'draw') as draws, count(*) filter (where outcome = 'void') as voids
       from micro_results where settled_ms >= $1
      group by 1, 2`,
    [fromMs],
  );
  // ...and the house's result from the ledger: what the seconds contracts' postings did to the house reserve
  // (stakes lost to it, profits paid from it; its holds and releases move nothing in total). Fundings of the
  // reserve are the house's own money moving, not a result, and are not counted.
  const { rows: ledgerRows } = await db.query<{ day: string | number; currency_id: number; pnl: string }>(
    `select floor((time_ms + ${shift}) / ${dayMs}) as day, currency_id,
            sum((available_after + locked_after) - (available_before + locked_before))::text as pnl
       from account_log
      where owner_key = $1 and wallet = 'micro' and reason = any($2::smallint[]) and time_ms >= $3
      group by 1, 2`,
    [ownerKeyOf('house'), Object.values(MicroReasonCode), fromMs],
  );
  const key = (day: string | number, currencyId: number) => `${Number(day)}:${currencyId}`;
  const pnl = new Map(ledgerRows.map((row) => [key(row.day, row.currency_id), BigInt(row.pnl)]));
  const byDay = new Map<string, MicroStatsDay & { sortDay: number; currencyId: number }>();
  const entry = (day: string | number, currencyId: number) => {
    const id = key(day, currencyId);
    let found = byDay.get(id);
    if (found === undefined) {
      found = {
        sortDay: Number(day),
        currencyId,
        day: new Date(Number(day) * dayMs).toISOString().slice(0, 10),
        currency_name: engine.ledger.currency(currencyId)?.code ?? '',
        orders: 0,
        wins: 0,
        losses: 0,
        draws: 0,
        voids: 0,
        house_pnl: amountText(engine, currencyId, pnl.get(id) ?? 0n),
        minimum_accounts: minimumAccounts,
        below_minimum: false,
      };
      byDay.set(id, found);
    }
    return found;
  };
  for (const row of rows) {
    Object.assign(entry(row.day, row.currency_id), {
      orders: Number(row.orders),
      wins: Number(row.wins),
      losses: Number(row.losses),
      draws: Number(row.draws),
      voids: Number(row.voids),
    });
    const accounts = Number(row.accounts);
    if (accounts > 0 && accounts < minimumAccounts)
      Object.assign(entry(row.day, row.currency_id), {
        orders: null,
        wins: null,
        losses: null,
        draws: null,
        voids: null,
        house_pnl: null,
        below_minimum: true,
      });
  }
  for (const row of ledgerRows) entry(row.day, row.currency_id);
  return [...byDay.values()]
    .sort((a, b) => b.sortDay - a.sortDay || a.currencyId - b.currencyId)
    .map(({ sortDay: _day, currencyId: _currency, ...day }) => day);
}

function amountText(engine: Engine, currencyId: number, minor: bigint): string {
  return formatDecimal(minor, engine.ledger.currency(currencyId)?.scale ?? 0);
}
