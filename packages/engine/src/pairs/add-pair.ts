import type { CommandContext } from '../kernel/context.ts';
import { MAX_AMOUNT, MAX_CURRENCY_ID, MAX_MARKET_ID, MAX_QUANTITY_LOTS } from '../limits.ts';
import { ResultCode } from '../result-codes.ts';
import { isCount } from '../validate.ts';
import type { AddMarketCommand } from './commands.ts';
import type { PairRegistry } from './registry.ts';
import { checkFees, parsePositiveDecimal, scaledInteger } from './spec.ts';

export function addPair(ctx: CommandContext, registry: PairRegistry, command: AddMarketCommand): number {
  const { marketId, baseCurrencyId, quoteCurrencyId, minimumLots } = command;
  if (!isCount(marketId, MAX_MARKET_ID)) return ResultCode.invalidId;
  if (!isCount(baseCurrencyId, MAX_CURRENCY_ID) || !isCount(quoteCurrencyId, MAX_CURRENCY_ID)) {
    return ResultCode.invalidId;
  }
  if (registry.markets.has(marketId)) return ResultCode.marketExists;
  const base = registry.ledger.currencies.get(baseCurrencyId);
  const quote = registry.ledger.currencies.get(quoteCurrencyId);
  if (base === undefined || quote === undefined) return ResultCode.currencyNotFound;
  if (baseCurrencyId === quoteCurrencyId) return ResultCode.sameCurrency;
  for (const pair of registry.markets.values()) {
    if (pair.baseCurrencyId === baseCurrencyId && pair.quoteCurrencyId === quoteCurrencyId) {
      return ResultCode.marketExists;
    }
  }
  const tick = parsePositiveDecimal(command.tickSize);
  if (tick === undefined) return ResultCode.invalidTickSize;
  const lot = parsePositiveDecimal(command.lotSize);
  if (lot === undefined) return ResultCode.invalidLotSize;
  if (!isCount(minimumLots, MAX_QUANTITY_LOTS)) return ResultCode.invalidMinimumLots;
  const feeCode = checkFees(command.makerFeePpm, command.takerFeePpm);
  if (feeCode !== ResultCode.ok) return feeCode;
  // One lot must be a whole number of base minor units, and one lot at one tick a whole number of quote
  // minor units; then every trade amount is an exact integer and no rounding happens anywhere but fees.
  const lotBaseMinor = scaledInteger(lot, base.scale);
  const tickLot = { units: tick.units * lot.units, scale: tick.scale + lot.scale };
  const quoteMinorPerTickLot = scaledInteger(tickLot, quote.scale);
  if (lotBaseMinor === undefined || quoteMinorPerTickLot === undefined) return ResultCode.tickLotNotIntegral;
  if (lotBaseMinor > MAX_AMOUNT || quoteMinorPerTickLot > MAX_AMOUNT) return ResultCode.invalidLotSize;
  const given = command.quoteMinorPerTickLot;
  if (given !== undefined && given !== quoteMinorPerTickLot) return ResultCode.quoteMinorMismatch;

  const pair = registry.createPair({
    marketId,
    baseCurrencyId,
    quoteCurrencyId,
    tickSize: command.tickSize,
    lotSize: command.lotSize,
    lotBaseMinor,
    quoteMinorPerTickLot,
    minimumLots,
    makerFeePpm: command.makerFeePpm,
    takerFeePpm: command.takerFeePpm,
  });
  ctx.emit({
    type: 'marketAdded',
    marketId,
    baseCurrencyId,
    quoteCurrencyId,
    tickSize: pair.tickSize,
    lotSize: pair.lotSize,
    lotBaseMinor,
    quoteMinorPerTickLot,
    minimumLots,
    makerFeePpm: pair.makerFeePpm,
    takerFeePpm: pair.takerFeePpm,
  });
  return ResultCode.ok;
}
