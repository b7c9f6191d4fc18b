import { MAX_MARKET_ID, MAX_PRICE_TICKS } from '../limits.ts';
import { ResultCode } from '../result-codes.ts';
import type { EngineState } from '../state.ts';
import { isCount } from '../validate.ts';
import type { RecordIndexPriceCommand } from './commands.ts';

/** The index price in force for a market, and the command time from which it holds. */
export type IndexPrice = { readonly priceTicks: number; readonly timeMs: number };

export function recordIndexPrice(state: EngineState, command: RecordIndexPriceCommand): number {
  if (!isCount(command.marketId, MAX_MARKET_ID)) return ResultCode.invalidId;
  if (!state.markets.has(command.marketId)) return ResultCode.marketNotFound;
  if (!isCount(command.priceTicks, MAX_PRICE_TICKS)) return ResultCode.invalidPrice;
  state.indexPrices.set(command.marketId, { priceTicks: command.priceTicks, timeMs: state.timeMs });
  state.events.push({
    type: 'indexPriceRecorded',
    marketId: command.marketId,
    priceTicks: command.priceTicks,
  });
  return ResultCode.ok;
}
