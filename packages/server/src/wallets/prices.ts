// Prices for valuations and flash exchanges: the index price the engine journals per market (the price
// source's index, recorded by the market-data service), never a price a client sent. A coin is priced in
// the legal currency (USDT) through its COIN/USDT market; the legal currency is worth exactly 1.
import type { Engine } from '@fairex/engine';
import { parseDecimal, pow10 } from '@fairex/shared';

/** An exact decimal price: `value` x 10^-scale legal-currency units per whole coin. */
export interface CoinPrice {
  value: bigint;
  scale: number;
  /** Command time (ms) from which the price holds; 0 for the legal currency itself. */
  timeMs: number;
  marketId: number;
}

/** What prices need from the engine: its markets and the index price of each. */
export type PriceEngine = Pick<Engine, 'spot' | 'market'>;

export class PriceBook {
  private readonly engine: PriceEngine;

  constructor(engine: PriceEngine) {
    this.engine = engine;
  }

  /** The coin's price in the legal currency, or undefined while its market has no index price. */
  priceOf(currencyId: number, legalCurrencyId: number): CoinPrice | undefined {
    if (currencyId === legalCurrencyId) return { value: 1n, scale: 0, timeMs: 0, marketId: 0 };
    for (const market of this.engine.spot.markets()) {
      if (market.baseCurrencyId !== currencyId || market.quoteCurrencyId !== legalCurrencyId) continue;
      const index = this.engine.market.indexPrice(market.marketId);
      if (index === undefined) return undefined;
      const scale = decimalsOf(market.tickSize);
      const tick = parseDecimal(market.tickSize, scale);
      return {
        value: BigInt(index.priceTicks) * tick,
        scale,
        timeMs: index.timeMs,
        marketId: market.marketId,
      };
    }
    return undefined;
  }
}

function decimalsOf(text: string): number {
  const point = text.indexOf('.');
  return point < 0 ? 0 : text.length - point - 1;
}

/** Valuations carry this many decimals until they are shown, so summing many rounded values stays exact enough. */
export const VALUE_SCALE = 18;

/** The value of `amount` minor units (of a currency with `scale` decimals) at VALUE_SCALE, rounded down. */
export function valueAt(amount: bigint, scale: number, price: CoinPrice): bigint {
  return (amount * price.value * pow10(VALUE_SCALE)) / (pow10(scale) * pow10(price.scale));
}

/** A VALUE_SCALE value divided by a price, at `scale` decimals, rounded down (legal total -> BTC). */
export function valueIn(value: bigint, price: CoinPrice, scale: number): bigint {
  if (price.value <= 0n) throw new RangeError('a price is positive');
  return (value * pow10(price.scale) * pow10(scale)) / (price.value * pow10(VALUE_SCALE));
}

/** Formats a price exactly, without trailing zeros. */
export function priceText(price: CoinPrice): string {
  const digits = price.value.toString().padStart(price.scale + 1, '0');
  if (price.scale === 0) return digits;
  const fraction = digits.slice(digits.length - price.scale).replace(/0+$/, '');
  const whole = digits.slice(0, digits.length - price.scale);
  return fraction === '' ? whole : `${whole}.${fraction}`;
}
