// Turning micro rows and events into the reply shapes of spec 02 (amounts and prices as decimal text).
import type { Engine, MicroOrderSettledEvent } from '@fairex/engine';
import { MICRO_INDEX_RULE_VERSION, formatTicks, settlementTicks } from '@fairex/engine';
import type { MicroOrderListItem, MicroProofSample } from '@fairex/shared';
import { formatDecimal } from '@fairex/shared';

/** A micro_orders row as read from the store (bigint columns may come back as bigint, number or text). */
export interface MicroOrderRow {
  order_id: bigint | number | string;
  user_id: number;
  market_id: number;
  currency_id: number;
  direction: number;
  seconds: number;
  profit_ratio_bp: number;
  stake: string | bigint;
  fee: string | bigint;
  accepted_ms: bigint | number | string;
  expiry_ms: bigint | number | string;
  status: number;
  outcome: 'win' | 'loss' | 'draw' | 'void' | null;
  void_reason: 'noOpenSample' | 'staleOpen' | 'staleEnd' | null;
  max_sample_age_ms: number | null;
  payout: string | bigint | null;
  fee_refund: string | bigint | null;
  rule_version: string | null;
  open_seq: bigint | number | string | null;
  open_time_ms: bigint | number | string | null;
  open_mark_ticks: bigint | number | string | null;
  open_index_ticks: bigint | number | string | null;
  open_stale: boolean | null;
  open_hash: string | null;
  end_seq: bigint | number | string | null;
  end_time_ms: bigint | number | string | null;
  end_mark_ticks: bigint | number | string | null;
  end_index_ticks: bigint | number | string | null;
  end_stale: boolean | null;
  end_hash: string | null;
}

export const MICRO_ORDER_COLUMNS = `o.order_id, o.user_id, o.market_id, o.currency_id, o.direction, o.seconds,
  o.profit_ratio_bp, o.stake::text as stake, o.fee::text as fee, o.accepted_ms, o.expiry_ms,
  case when r.order_id is null then 1 else 3 end as status, r.outcome, r.void_reason, r.max_sample_age_ms,
  r.payout::text as payout, r.fee_refund::text as fee_refund, r.rule_version, r.open_seq,
  os.time_ms as open_time_ms, os.mark_ticks as open_mark_ticks, os.index_ticks as open_index_ticks,
  os.stale as open_stale, os.hash as open_hash, r.end_seq, es.time_ms as end_time_ms,
  es.mark_ticks as end_mark_ticks, es.index_ticks as end_index_ticks, es.stale as end_stale,
  es.hash as end_hash`;

/**
 * The orders with their results (none while running) and the results' two samples, read from the price
 * record by (market, seq) (migration 0071: micro_results keeps only the seqs).
 */
export const MICRO_ORDER_FROM = `micro_orders o left join micro_results r on r.order_id = o.order_id
  left join price_samples os on os.market_id = o.market_id and os.seq = r.open_seq
  left join price_samples es on es.market_id = o.market_id and es.seq = r.end_seq`;

/** The order view with what the screen and the proof need beyond the template's fields. */
export type { MicroOrderListItem };

/** Basis points as a percent without trailing zeros: 8500 -> "85", 1250 -> "12.5". */
export function percentText(bp: number): string {
  const text = formatDecimal(BigInt(bp), 2);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

function nullableNumber(value: bigint | number | string | null): number | null {
  return value === null ? null : Number(value);
}

export interface ViewContext {
  engine: Engine;
  symbolOf(marketId: number): string;
  nowMs: number;
  /**
   * Texts already made for this context (prices of a sample, ratios, currency names and scales): a push of
   * a settling second builds tens of thousands of views that share a handful of them. Only for a context
   * used within one turn, while the engine's configuration cannot change.
   */
  memo?: Map<string, string>;
}

function memoized(context: ViewContext, key: string, make: () => string): string {
  const memo = context.memo;
  if (memo === undefined) return make();
  let text = memo.get(key);
  if (text === undefined) {
    text = make();
    memo.set(key, text);
  }
  return text;
}

function priceText(engine: Engine, marketId: number, ticks: number | null): string {
  const market = engine.spot.market(marketId);
  return ticks === null || market === undefined ? '' : formatTicks(ticks, market.tickSize);
}

function amountText(engine: Engine, currencyId: number, minor: bigint): string {
  const scale = engine.ledger.currency(currencyId)?.scale ?? 0;
  return formatDecimal(minor, scale);
}

/**
 * Whether a settled order settled on the index (rule v2) or the mark (v1, orders journaled before v2); a
 * running order (no result yet) is one the exchange accepts now, which settles on the index.
 */
export function settlesOnIndex(row: Pick<MicroOrderRow, 'rule_version'>): boolean {
  return row.rule_version === null || row.rule_version === MICRO_INDEX_RULE_VERSION;
}

export function orderView(context: ViewContext, row: MicroOrderRow): MicroOrderListItem {
  const { engine } = context;
  const stake = BigInt(row.stake);
  const fee = BigInt(row.fee);
  const expiryMs = Number(row.expiry_ms);
  const closed = row.status === 3;
  const payout = row.payout === null ? 0n : BigInt(row.payout);
  // The prices shown are the ones the order settles on: the index (rule v2) or the mark (v1).
  const onIndex = settlesOnIndex(row);
  const running = closed ? undefined : engine.micro.order(Number(row.order_id));
  // A running order's open sample is in the engine (the projection records samples at settlement).
  const openTicks = closed
    ? nullableNumber(onIndex ? row.open_index_ticks : row.open_mark_ticks)
    : running?.open === null || running?.open === undefined
      ? null
      : settlementTicks(running.open, running.settleOn);
  const endTicks = closed ? nullableNumber(onIndex ? row.end_index_ticks : row.end_mark_ticks) : null;
  const { market_id: marketId, currency_id: currencyId } = row;
  const price = (ticks: number | null) =>
    ticks === null
      ? ''
      : memoized(context, `p${marketId}:${ticks}`, () => priceText(engine, marketId, ticks));
  const scale = Number(
    memoized(context, `s${currencyId}`, () => String(engine.ledger.currency(currencyId)?.scale ?? 0)),
  );
  return {
    id: Number(row.order_id),
    match_id: marketId,
    symbol_name: memoized(context, `m${marketId}`, () => context.symbolOf(marketId)),
    seconds: row.seconds,
    number: formatDecimal(stake, scale),
    currency_name: memoized(context, `c${currencyId}`, () => engine.ledger.currency(currencyId)?.code ?? ''),
    open_price: price(openTicks),
    end_price: closed ? price(endTicks) : '',
    type: row.direction === 2 ? 2 : 1,
    status: closed ? 3 : 1,
    profit_ratio: memoized(context, `r${row.profit_ratio_bp}`, () => percentText(row.profit_ratio_bp)),
    remain_milli_seconds: closed ? 0 : Math.max(0, expiryMs - context.nowMs),
    // The user's result besides the fee: the profit on a win, minus the stake on a loss, 0 on a draw or void.
    fact_profits: closed ? formatDecimal(payout - stake, scale) : '0',
    fee: formatDecimal(fee, scale),
    outcome: row.outcome,
    void_reason: row.void_reason,
    created_time: Number(row.accepted_ms),
    expiry_time: expiryMs,
    fee_refund: formatDecimal(closed && row.fee_refund !== null ? BigInt(row.fee_refund) : 0n, scale),
  };
}

/** The row a settled event gives micro_orders and micro_results (for the push, without reading the store). */
export function rowOfSettled(event: MicroOrderSettledEvent): MicroOrderRow {
  return {
    order_id: event.orderId,
    user_id: event.userId,
    market_id: event.marketId,
    currency_id: event.currencyId,
    direction: event.direction,
    seconds: event.seconds,
    profit_ratio_bp: event.profitRatioBp,
    stake: event.stake,
    fee: event.fee,
    accepted_ms: event.acceptedMs,
    expiry_ms: event.expiryMs,
    status: 3,
    outcome: event.outcome,
    void_reason: event.voidReason,
    max_sample_age_ms: event.maxSampleAgeMs,
    payout: event.payout,
    fee_refund: event.feeRefund,
    rule_version: event.ruleVersion,
    open_seq: event.open?.seq ?? null,
    open_time_ms: event.open?.timeMs ?? null,
    open_mark_ticks: event.open?.markTicks ?? null,
    open_index_ticks: event.open?.indexTicks ?? null,
    open_stale: event.open?.stale ?? null,
    open_hash: event.open?.hash ?? null,
    end_seq: event.end?.seq ?? null,
    end_time_ms: event.end?.timeMs ?? null,
    end_mark_ticks: event.end?.markTicks ?? null,
    end_index_ticks: event.end?.indexTicks ?? null,
    end_stale: event.end?.stale ?? null,
    end_hash: event.end?.hash ?? null,
  };
}

export function proofSample(
  engine: Engine,
  row: MicroOrderRow,
  which: 'open' | 'end',
): MicroProofSample | null {
  const seq = which === 'open' ? row.open_seq : row.end_seq;
  if (seq === null) return null;
  const time = which === 'open' ? row.open_time_ms : row.end_time_ms;
  // The price the order settled on: the sample's index (rule v2) or its mark (v1).
  const ticks = settlesOnIndex(row)
    ? which === 'open'
      ? row.open_index_ticks
      : row.end_index_ticks
    : which === 'open'
      ? row.open_mark_ticks
      : row.end_mark_ticks;
  return {
    seq: Number(seq),
    time: Number(time),
    price: priceText(engine, row.market_id, nullableNumber(ticks)),
    stale: (which === 'open' ? row.open_stale : row.end_stale) ?? false,
    hash: (which === 'open' ? row.open_hash : row.end_hash) ?? '',
  };
}

export { amountText, priceText };
