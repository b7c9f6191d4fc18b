import { invariant } from '../invariant.ts';
import { CHANGE_WALLET_INDEX, FEES_OWNER_KEY } from '../ledger/accounts.ts';
import {
  MAX_AMOUNT,
  MAX_CURRENCY_ID,
  MAX_FEE_PPM,
  MAX_MARKET_BAND_PPM,
  MAX_MARKET_ID,
  MAX_QUANTITY_LOTS,
} from '../limits.ts';
import { ResultCode } from '../result-codes.ts';
import type { CommandContext } from '../kernel/context.ts';
import { isCount, isNatural } from '../validate.ts';
import type { AddMarketCommand, SetMarketBandCommand, SetMarketFeesCommand } from './commands.ts';
import { FastOrderBook } from './fast-book.ts';
import type { OrderBook } from './order-book.ts';
import { ReferenceOrderBook } from './reference-book.ts';
import { SpotResultCode } from './result-codes.ts';
import type { SpotState } from './state.ts';
import { Market } from './types.ts';

/** A positive decimal as an integer and a power of ten: "0.0100" is { units: 100n, scale: 4 }. */
type Decimal = { units: bigint; scale: number };

const decimalPattern = /^(0|[1-9][0-9]{0,29})(\.[0-9]{1,30})?$/;

export function parsePositiveDecimal(text: unknown): Decimal | undefined {
  if (typeof text !== 'string' || !decimalPattern.test(text)) return undefined;
  const [whole = '', fraction = ''] = text.split('.');
  const units = BigInt(whole + fraction);
  return units > 0n ? { units, scale: fraction.length } : undefined;
}

/** value x 10^exponent when that is a whole number, otherwise undefined. */
function scaledInteger(value: Decimal, exponent: number): bigint | undefined {
  const shift = exponent - value.scale;
  if (shift >= 0) return value.units * 10n ** BigInt(shift);
  const divisor = 10n ** BigInt(-shift);
  return value.units % divisor === 0n ? value.units / divisor : undefined;
}

export function addMarket(ctx: CommandContext, state: SpotState, command: AddMarketCommand): number {
  const { marketId, baseCurrencyId, quoteCurrencyId, minimumLots } = command;
  if (!isCount(marketId, MAX_MARKET_ID)) return ResultCode.invalidId;
  if (!isCount(baseCurrencyId, MAX_CURRENCY_ID) || !isCount(quoteCurrencyId, MAX_CURRENCY_ID)) {
    return ResultCode.invalidId;
  }
  if (state.markets.has(marketId)) return ResultCode.marketExists;
  const base = state.ledger.currencies.get(baseCurrencyId);
  const quote = state.ledger.currencies.get(quoteCurrencyId);
  if (base === undefined || quote === undefined) return ResultCode.currencyNotFound;
  if (baseCurrencyId === quoteCurrencyId) return ResultCode.sameCurrency;
  for (const market of state.markets.values()) {
    if (market.baseCurrencyId === baseCurrencyId && market.quoteCurrencyId === quoteCurrencyId) {
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

  const market = createMarket(state, {
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
    tickSize: market.tickSize,
    lotSize: market.lotSize,
    lotBaseMinor,
    quoteMinorPerTickLot,
    minimumLots,
    makerFeePpm: market.makerFeePpm,
    takerFeePpm: market.takerFeePpm,
  });
  return ResultCode.ok;
}

export type MarketConfig = {
  marketId: number;
  baseCurrencyId: number;
  quoteCurrencyId: number;
  tickSize: string;
  lotSize: string;
  lotBaseMinor: bigint;
  quoteMinorPerTickLot: bigint;
  minimumLots: number;
  makerFeePpm: number;
  takerFeePpm: number;
};

/** Builds and registers a market with an empty book (also used by restore). */
export function createMarket(state: SpotState, config: MarketConfig): Market {
  invariant(!state.markets.has(config.marketId), `market ${config.marketId} exists`);
  const book: OrderBook =
    state.bookImplementation === 'fast'
      ? new FastOrderBook(config.quoteMinorPerTickLot)
      : new ReferenceOrderBook(config.quoteMinorPerTickLot);
  const market = new Market({
    ...config,
    book,
    feesBaseAccount: state.ledger.account(FEES_OWNER_KEY, CHANGE_WALLET_INDEX, config.baseCurrencyId),
    feesQuoteAccount: state.ledger.account(FEES_OWNER_KEY, CHANGE_WALLET_INDEX, config.quoteCurrencyId),
  });
  state.markets.set(config.marketId, market);
  return market;
}

export function setMarketFees(ctx: CommandContext, state: SpotState, command: SetMarketFeesCommand): number {
  if (!isCount(command.marketId, MAX_MARKET_ID)) return ResultCode.invalidId;
  const market = state.markets.get(command.marketId);
  if (market === undefined) return ResultCode.marketNotFound;
  const feeCode = checkFees(command.makerFeePpm, command.takerFeePpm);
  if (feeCode !== ResultCode.ok) return feeCode;
  market.setFees(command.makerFeePpm, command.takerFeePpm);
  ctx.emit({
    type: 'marketFeesChanged',
    marketId: market.marketId,
    makerFeePpm: market.makerFeePpm,
    takerFeePpm: market.takerFeePpm,
  });
  return ResultCode.ok;
}

export function setMarketBand(ctx: CommandContext, state: SpotState, command: SetMarketBandCommand): number {
  if (!isCount(command.marketId, MAX_MARKET_ID)) return ResultCode.invalidId;
  const market = state.markets.get(command.marketId);
  if (market === undefined) return ResultCode.marketNotFound;
  if (!isNatural(command.bandPpm, MAX_MARKET_BAND_PPM)) return SpotResultCode.invalidBand;
  market.bandPpm = command.bandPpm;
  ctx.emit({ type: 'marketBandChanged', marketId: market.marketId, bandPpm: market.bandPpm });
  return ResultCode.ok;
}

function checkFees(makerFeePpm: unknown, takerFeePpm: unknown): number {
  return isNatural(makerFeePpm, MAX_FEE_PPM) && isNatural(takerFeePpm, MAX_FEE_PPM)
    ? ResultCode.ok
    : ResultCode.invalidFeeRate;
}
