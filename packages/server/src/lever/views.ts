// The lever records as the calls, the push and the back office show them (spec 02 section 3, the lever
// order; spec 01 section 3, the leverage trade row): live records (pending entries, holdings) from the
// engine, ended ones (closed, revoked) from the lever_ends projection, both into one LeverTradeRow.
import type { Engine, LeverPositionView, LeverQueries, LeverRiskView } from '@fairex/engine';
import type { LeverCloseReason, LeverRisk, LeverTradeRow } from '@fairex/shared';
import { LEVER_RISK_WARNING_MARGIN, formatDecimal } from '@fairex/shared';
import type { MarketInfo } from '../market/market-catalog.ts';
import { formatLots, formatPrice } from '../market/market-catalog.ts';
import type { Queryable } from '../store/index.ts';

/** The lever area's queries (`engine.lever`), or undefined when the engine has no lever area installed. */
export function leverQueries(engine: Engine): LeverQueries | undefined {
  return (engine as unknown as { lever?: LeverQueries }).lever;
}

export interface ViewContext {
  engine: Engine;
  market(marketId: number): MarketInfo | undefined;
}

/** ppm as a percent text ("500" ppm -> "0.05"). */
export function ppmPercent(ppm: number): string {
  return formatDecimal(BigInt(ppm), 4, { trim: true });
}

/** Basis points as a percent text (1,000 bp -> "10"). */
export function bpPercent(bp: number): string {
  return formatDecimal(BigInt(bp), 2, { trim: true });
}

const CLOSE_REASONS: Record<string, LeverCloseReason> = {
  user: 'user',
  batch: 'batch',
  takeProfit: 'take_profit',
  stopLoss: 'stop_loss',
  liquidation: 'liquidation',
};

function amount(market: MarketInfo, minor: bigint): string {
  return formatDecimal(minor, market.quoteScale);
}

function stop(market: MarketInfo, ticks: number | bigint | null): string | null {
  return ticks === null || BigInt(ticks) === 0n ? null : formatPrice(market, ticks);
}

/** What the projection knows of a live record: the mark it was priced on, when it opened. */
export interface LiveOrigin {
  markTicks: number;
  openedMarkTicks: number | null;
}

/** The origin marks of some records (lever_positions and lever_opens). */
export async function loadOrigins(db: Queryable, ids: readonly number[]): Promise<Map<number, LiveOrigin>> {
  const origins = new Map<number, LiveOrigin>();
  if (ids.length === 0) return origins;
  const { rows } = await db.query<{
    position_id: string | number;
    mark_ticks: string | number;
    opened: string | number | null;
  }>(
    `select p.position_id, p.mark_ticks, o.mark_ticks as opened
       from lever_positions p left join lever_opens o on o.position_id = p.position_id
      where p.position_id = any($1::bigint[])`,
    [ids.map(String)],
  );
  for (const row of rows)
    origins.set(Number(row.position_id), {
      markTicks: Number(row.mark_ticks),
      openedMarkTicks: row.opened === null ? null : Number(row.opened),
    });
  return origins;
}

/** A live record (status 0 or 1) as a row; `mark` is the pair's current mark in ticks (undefined: none). */
export function liveRow(
  market: MarketInfo,
  view: LeverPositionView,
  markTicks: number | undefined,
  origin: LiveOrigin | undefined,
): LeverTradeRow {
  const holding = view.status === 1;
  const originTicks = holding
    ? (origin?.openedMarkTicks ?? origin?.markTicks ?? view.entryTicks)
    : view.entryTicks;
  return {
    id: view.positionId,
    type: view.side,
    status: view.status,
    symbol: market.symbol,
    legal_id: market.quoteCurrencyId,
    currency_id: market.baseCurrencyId,
    legal: market.quoteCode,
    currency: market.baseCode,
    price_scale: market.priceScale,
    legal_scale: market.quoteScale,
    share: view.share,
    multiple: view.multiple,
    number: formatLots(market, view.lots),
    origin_price: formatPrice(market, originTicks),
    price: formatPrice(market, view.entryTicks),
    update_price:
      markTicks === undefined ? formatPrice(market, view.entryTicks) : formatPrice(market, markTicks),
    target_price: holding ? null : formatPrice(market, view.entryTicks),
    target_profit_price: stop(market, view.takeProfitTicks),
    stop_loss_price: stop(market, view.stopLossTicks),
    origin_caution_money: amount(market, view.originMargin),
    caution_money: amount(market, view.margin),
    trade_fee: amount(market, view.fee),
    overnight_money: amount(market, view.overnightPaid),
    profits: amount(market, holding ? view.profit : 0n),
    liquidation_price:
      holding && view.liquidationTicks !== null && view.liquidationTicks > 0
        ? formatPrice(market, view.liquidationTicks)
        : null,
    spread: ppmPercent(view.rules.spreadPpm),
    lever_trade_fee: ppmPercent(view.rules.feePpm),
    overnight: ppmPercent(view.rules.overnightPpm),
    create_time: view.placedMs,
    transaction_time: holding ? view.openedMs : null,
    complete_time: null,
    handle_time: null,
    close_reason: null,
    paid_back: null,
    insurance_paid: null,
  };
}

/** The columns an ended record is read with (lever_positions joined with its open, last stops and end). */
export const ENDED_COLUMNS = `p.position_id, p.user_id, p.market_id, p.side, p.share, p.lots, p.multiple, p.entry_ticks,
  p.margin as placed_margin, p.fee, p.spread_ppm, p.fee_ppm, p.overnight_ppm, p.placed_status, p.placed_ms,
  p.mark_ticks as placed_mark, o.opened_ms, o.mark_ticks as opened_mark, e.status, e.reason, e.ended_ms,
  e.close_ticks, e.margin, e.origin_margin, e.overnight_paid, e.profit, e.returned, e.shortfall,
  (select s.take_profit_ticks from lever_stops s where s.position_id = p.position_id
     order by s.seq desc, s.event_index desc limit 1) as take_profit_ticks,
  (select s.stop_loss_ticks from lever_stops s where s.position_id = p.position_id
     order by s.seq desc, s.event_index desc limit 1) as stop_loss_ticks`;

export const ENDED_FROM = `lever_ends e join lever_positions p on p.position_id = e.position_id
  left join lever_opens o on o.position_id = e.position_id`;

type Num = string | number;

export interface EndedRow {
  position_id: Num;
  user_id: number;
  market_id: number;
  side: number;
  share: number;
  lots: Num;
  multiple: number;
  entry_ticks: Num;
  placed_margin: Num;
  fee: Num;
  spread_ppm: number;
  fee_ppm: number;
  overnight_ppm: number;
  placed_status: number;
  placed_ms: Num;
  placed_mark: Num;
  opened_ms: Num | null;
  opened_mark: Num | null;
  status: number;
  reason: string | null;
  ended_ms: Num;
  close_ticks: Num | null;
  margin: Num;
  origin_margin: Num;
  overnight_paid: Num;
  profit: Num;
  returned: Num;
  shortfall: Num;
  take_profit_ticks: Num | null;
  stop_loss_ticks: Num | null;
}

/** An ended record (status 3 closed, 4 revoked) as a row. */
export function endedRow(market: MarketInfo, row: EndedRow): LeverTradeRow {
  const closed = Number(row.status) === 3;
  const fromEntry = Number(row.placed_status) === 0;
  const openedMs = fromEntry
    ? row.opened_ms === null
      ? null
      : Number(row.opened_ms)
    : Number(row.placed_ms);
  const originTicks = fromEntry ? (row.opened_mark ?? row.entry_ticks) : row.placed_mark;
  const big = (value: Num) => BigInt(value);
  return {
    id: Number(row.position_id),
    type: Number(row.side) === 1 ? 1 : 2,
    status: closed ? 3 : 4,
    symbol: market.symbol,
    legal_id: market.quoteCurrencyId,
    currency_id: market.baseCurrencyId,
    legal: market.quoteCode,
    currency: market.baseCode,
    price_scale: market.priceScale,
    legal_scale: market.quoteScale,
    share: Number(row.share),
    multiple: Number(row.multiple),
    number: formatLots(market, big(row.lots)),
    origin_price: formatPrice(market, big(originTicks)),
    price: formatPrice(market, big(row.entry_ticks)),
    update_price: formatPrice(market, big(row.close_ticks ?? row.entry_ticks)),
    target_price: fromEntry ? formatPrice(market, big(row.entry_ticks)) : null,
    target_profit_price: row.take_profit_ticks === null ? null : stop(market, big(row.take_profit_ticks)),
    stop_loss_price: row.stop_loss_ticks === null ? null : stop(market, big(row.stop_loss_ticks)),
    origin_caution_money: amount(market, closed ? big(row.origin_margin) : big(row.placed_margin)),
    caution_money: amount(market, closed ? big(row.margin) : big(row.placed_margin)),
    trade_fee: amount(market, big(row.fee)),
    overnight_money: amount(market, big(row.overnight_paid)),
    profits: amount(market, closed ? big(row.profit) : 0n),
    liquidation_price: null,
    spread: ppmPercent(Number(row.spread_ppm)),
    lever_trade_fee: ppmPercent(Number(row.fee_ppm)),
    overnight: ppmPercent(Number(row.overnight_ppm)),
    create_time: Number(row.placed_ms),
    transaction_time: closed ? openedMs : null,
    complete_time: Number(row.ended_ms),
    handle_time: Number(row.ended_ms),
    close_reason: closed && row.reason !== null ? (CLOSE_REASONS[row.reason] ?? null) : null,
    paid_back: amount(market, big(row.returned)),
    insurance_paid: closed ? amount(market, big(row.shortfall)) : null,
  };
}

/** A user's account in one quote currency as the risk bar shows it. */
export function riskView(engine: Engine, risk: LeverRiskView, pairThresholdBp: number): LeverRisk {
  const currency = engine.ledger.currency(risk.quoteCurrencyId);
  const scale = currency?.scale ?? 0;
  const thresholdBp = risk.thresholdBp > 0 ? risk.thresholdBp : pairThresholdBp;
  return {
    legal_id: risk.quoteCurrencyId,
    legal_name: currency?.code ?? '',
    hazard_rate: risk.riskRateBp === null ? '0' : bpPercent(Math.max(0, risk.riskRateBp)),
    liquidation_threshold: bpPercent(thresholdBp),
    warning_rate: bpPercent(thresholdBp + LEVER_RISK_WARNING_MARGIN * 100),
    profits_all: formatDecimal(risk.profit, scale),
    caution_money_all: formatDecimal(risk.margin, scale),
    origin_caution_money_all: formatDecimal(risk.originMargin, scale),
    lever_balance: formatDecimal(risk.balance, scale),
  };
}
