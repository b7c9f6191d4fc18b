// A seeded exchange workload for the runner's tests and benchmarks: two currencies and one market, funded
// users, then a stream of limit orders around a drifting mid price (many of which cross and trade), market
// orders, cancels of the user's own resting orders, and deposits. Cancels pick from the live engine's open
// orders, so the same seed against the same state gives the same commands.
import type { Command, Engine } from '@fairex/engine';

export const BTC = 1;
export const USDT = 2;
export const BTC_USDT = 1;

/** mulberry32: small, fast, and good enough to spread a workload. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Currencies, the market (tick 0.01 USDT, lot 0.0001 BTC, fees 0.1 % / 0.2 %) and each user's funding. */
export function setupCommands(users: number): Command[] {
  const commands: Command[] = [
    { type: 'addCurrency', currencyId: BTC, code: 'BTC', scale: 8 },
    { type: 'addCurrency', currencyId: USDT, code: 'USDT', scale: 6 },
    {
      type: 'addMarket',
      marketId: BTC_USDT,
      baseCurrencyId: BTC,
      quoteCurrencyId: USDT,
      tickSize: '0.01',
      lotSize: '0.0001',
      minimumLots: 1,
      makerFeePpm: 1_000,
      takerFeePpm: 2_000,
    },
  ];
  for (let userId = 1; userId <= users; userId++) {
    commands.push({ type: 'deposit', userId, currencyId: BTC, amount: 1_000n * 100_000_000n });
    commands.push({ type: 'deposit', userId, currencyId: USDT, amount: 100_000_000n * 1_000_000n });
  }
  return commands;
}

/** The quote currency, the market and the first user id of a workload: by default those of `setupCommands`. */
export interface WorkloadMarket {
  quoteCurrencyId: number;
  marketId: number;
  firstUserId?: number;
}

export class Workload {
  private readonly random: () => number;
  private readonly users: number;
  private readonly quoteCurrencyId: number;
  private readonly marketId: number;
  private readonly firstUserId: number;
  /** Mid price in ticks (0.01 USDT): starts at 60,000 USDT and walks. */
  private midTicks = 6_000_000;

  constructor(seed: number, users: number, market?: WorkloadMarket) {
    this.random = seededRandom(seed);
    this.users = users;
    this.quoteCurrencyId = market?.quoteCurrencyId ?? USDT;
    this.marketId = market?.marketId ?? BTC_USDT;
    this.firstUserId = market?.firstUserId ?? 1;
  }

  /** The next command; `engine` is read (never written) to find a resting order worth cancelling. */
  next(engine: Pick<Engine, 'spot'>): Command {
    const draw = this.random();
    const userId = this.firstUserId + Math.floor(this.random() * this.users);
    this.midTicks += Math.round((this.random() - 0.5) * 40);
    if (draw < 0.62) return this.limitOrder(userId);
    if (draw < 0.8) {
      const open = engine.spot.openOrders(userId, this.marketId);
      const target = open[Math.floor(this.random() * open.length)];
      if (target !== undefined) return { type: 'cancelOrder', owner: userId, orderId: target.orderId };
      return this.limitOrder(userId);
    }
    if (draw < 0.9) {
      return {
        type: 'placeOrder',
        owner: userId,
        marketId: this.marketId,
        side: this.random() < 0.5 ? 'buy' : 'sell',
        kind: 'market',
        quantityLots: 1 + Math.floor(this.random() * 20),
        quoteAmountMax: 5_000n * 1_000_000n,
      };
    }
    return {
      type: 'deposit',
      userId,
      currencyId: this.quoteCurrencyId,
      amount: BigInt(1 + Math.floor(this.random() * 1e9)),
    };
  }

  private limitOrder(userId: number): Command {
    const side = this.random() < 0.5 ? 'buy' : 'sell';
    // Prices straddle the mid, so roughly a third of limit orders cross the spread and trade.
    const offset = Math.floor(this.random() * 300) - 100;
    const priceTicks = side === 'buy' ? this.midTicks - offset : this.midTicks + offset;
    return {
      type: 'placeOrder',
      owner: userId,
      marketId: this.marketId,
      side,
      kind: 'limit',
      priceTicks,
      quantityLots: 1 + Math.floor(this.random() * 50),
    };
  }
}
