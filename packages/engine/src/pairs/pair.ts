// A trading pair's specification: its currencies, tick and lot, minimum size, fee rates and market-order
// band. Amounts per tick and lot are exact integers (validated when the pair is added, add-pair.ts). The spot
// area's market (spot/market.ts) is a pair with its book; other areas read a pair through `PairQueries`.
import { DEFAULT_MARKET_BAND_PPM } from '../limits.ts';
import { quoteAmountOf } from './amounts.ts';

/** What a pair is made of, as added (and as restored from a snapshot). */
export type PairConfig = {
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

/** A copy of a pair's specification, for queries. */
export type PairView = PairConfig & {
  /** Market-order price-protection band, ppm of the reference price (0: none). */
  bandPpm: number;
};

export class Pair {
  readonly marketId: number;
  readonly baseCurrencyId: number;
  readonly quoteCurrencyId: number;
  /** Decimal text: quote units per whole base unit per tick. */
  readonly tickSize: string;
  /** Decimal text: base units per lot. */
  readonly lotSize: string;
  /** Base minor units in one lot. */
  readonly lotBaseMinor: bigint;
  /** Quote minor units of one lot at a price of one tick: a trade's quote amount is price x lots x this. */
  readonly quoteMinorPerTickLot: bigint;
  /** The same as a number when it is a safe integer, else 0 (then amounts are always computed in bigint). */
  private readonly quoteMinorPerTickLotNumber: number;
  readonly minimumLots: number;
  makerFeePpm: number;
  takerFeePpm: number;
  makerFeePpmBig: bigint;
  takerFeePpmBig: bigint;
  /** The market-order price-protection band in ppm of the reference price (0: none). */
  bandPpm: number = DEFAULT_MARKET_BAND_PPM;

  constructor(config: PairConfig) {
    this.marketId = config.marketId;
    this.baseCurrencyId = config.baseCurrencyId;
    this.quoteCurrencyId = config.quoteCurrencyId;
    this.tickSize = config.tickSize;
    this.lotSize = config.lotSize;
    this.lotBaseMinor = config.lotBaseMinor;
    this.quoteMinorPerTickLot = config.quoteMinorPerTickLot;
    this.quoteMinorPerTickLotNumber =
      config.quoteMinorPerTickLot <= BigInt(Number.MAX_SAFE_INTEGER)
        ? Number(config.quoteMinorPerTickLot)
        : 0;
    this.minimumLots = config.minimumLots;
    this.makerFeePpm = config.makerFeePpm;
    this.takerFeePpm = config.takerFeePpm;
    this.makerFeePpmBig = BigInt(config.makerFeePpm);
    this.takerFeePpmBig = BigInt(config.takerFeePpm);
  }

  /**
   * price x lots x quote minor units per tick and lot, exactly. The floating-point product is used only
   * when it is provably exact: a product of safe integers whose true value exceeds 2^53 - 1 also comes out
   * at 2^53 or more in floating point, so the bound test never accepts an inexact value.
   */
  quoteAmount(priceTicks: number, lots: number): bigint {
    const product = priceTicks * lots * this.quoteMinorPerTickLotNumber;
    return product > 0 && product <= Number.MAX_SAFE_INTEGER
      ? BigInt(product)
      : quoteAmountOf(priceTicks, lots, this.quoteMinorPerTickLot);
  }

  setFees(makerFeePpm: number, takerFeePpm: number): void {
    this.makerFeePpm = makerFeePpm;
    this.takerFeePpm = takerFeePpm;
    this.makerFeePpmBig = BigInt(makerFeePpm);
    this.takerFeePpmBig = BigInt(takerFeePpm);
  }
}

export function pairView(pair: Pair): PairView {
  return {
    marketId: pair.marketId,
    baseCurrencyId: pair.baseCurrencyId,
    quoteCurrencyId: pair.quoteCurrencyId,
    tickSize: pair.tickSize,
    lotSize: pair.lotSize,
    lotBaseMinor: pair.lotBaseMinor,
    quoteMinorPerTickLot: pair.quoteMinorPerTickLot,
    minimumLots: pair.minimumLots,
    makerFeePpm: pair.makerFeePpm,
    takerFeePpm: pair.takerFeePpm,
    bandPpm: pair.bandPpm,
  };
}
