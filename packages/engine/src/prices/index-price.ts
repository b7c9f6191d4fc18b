import { MAX_MARKET_ID, MAX_PRICE_TICKS } from '../limits.ts';
import type { CommandContext } from '../kernel/context.ts';
import { ResultCode } from '../result-codes.ts';
import { isCount } from '../validate.ts';
import type { RecordIndexPriceCommand } from './commands.ts';
import { PRICE_PAIRS } from './expected.ts';
import type { PricesState } from './state.ts';

/** The index price in force for a market, and the command time from which it holds. */
export type IndexPrice = { readonly priceTicks: number; readonly timeMs: number };

export function recordIndexPrice(
  ctx: CommandContext,
  state: PricesState,
  command: RecordIndexPriceCommand,
): number {
  if (!isCount(command.marketId, MAX_MARKET_ID)) return ResultCode.invalidId;
  if (!ctx.port(PRICE_PAIRS).hasMarket(command.marketId)) return ResultCode.marketNotFound;
  if (!isCount(command.priceTicks, MAX_PRICE_TICKS)) return ResultCode.invalidPrice;
  state.indexPrices.set(command.marketId, { priceTicks: command.priceTicks, timeMs: ctx.timeMs });
  ctx.emit({
    type: 'indexPriceRecorded',
    marketId: command.marketId,
    priceTicks: command.priceTicks,
  });
  ctx.priceRecorded({
    marketId: command.marketId,
    timeMs: ctx.timeMs,
    sample: false,
    seq: 0,
    hash: null,
    stale: false,
    indexTicks: command.priceTicks,
    markTicks: null,
  });
  return ResultCode.ok;
}
