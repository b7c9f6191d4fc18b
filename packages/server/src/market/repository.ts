// The market area's reads that the public calls make straight from SQL: a market's recent public trades
// and a currency's text. Route files call these instead of holding SQL.
import type { Queryable } from '../store/index.ts';

export interface TradeRow {
  trade_id: bigint;
  price_ticks: bigint;
  quantity_lots: bigint;
  maker_side: 'buy' | 'sell';
  time_ms: bigint;
}

/** A market's latest trades with a user on at least one side, newest first. */
export async function recentPublicTrades(
  db: Queryable,
  marketId: number,
  limit: number,
): Promise<TradeRow[]> {
  const { rows } = await db.query<TradeRow>(
    `select trade_id, price_ticks, quantity_lots, maker_side, time_ms from spot_trades
      where market_id = $1 and with_user order by trade_id desc limit $2`,
    [marketId, limit],
  );
  return rows;
}

export interface CurrencyText {
  id: number;
  code: string;
  name: string;
  descriptions: Record<string, string>;
}

/** A currency's code, name and descriptions by language; `enabledOnly` skips a disabled currency. */
export async function currencyText(
  db: Queryable,
  id: number,
  options: { enabledOnly?: boolean } = {},
): Promise<CurrencyText | undefined> {
  const { rows } = await db.query<CurrencyText>(
    options.enabledOnly === true
      ? 'select id, code, name, descriptions from currencies where id = $1 and is_enabled'
      : 'select id, code, name, descriptions from currencies where id = $1',
    [id],
  );
  return rows[0];
}
