// The market maker against a real engine: it never crosses its own quotes, never asks for money it does not
// have, stops buying above its inventory limit, sends a bounded number of commands per cycle, keeps its
// ladder around a moving index, and only quotes: without users there is not a single trade, a user's order
// trades with it, and a user's order resting across its ladder is never taken by it (its quotes are
// post-only). planCycle's guards are also checked on random situations.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '@fairex/engine';
import type { Command, EngineEvent, OrderView, Outcome } from '@fairex/engine';
import type { TradeFact } from '../../src/market/candles.ts';
import { MarketCatalog } from '../../src/market/market-catalog.ts';
import type { MarketInfo } from '../../src/market/market-catalog.ts';
import type { MakerView, MarketMakerConfig } from '../../src/market/market-maker.ts';
import {
  DEFAULT_MARKET_MAKER_CONFIG,
  genesisAmounts,
  gridTicks,
  ladderPrices,
  MarketMaker,
  planCycle,
} from '../../src/market/market-maker.ts';
import { PriceSimulator } from '../../src/market/simulator.ts';
import { TickerBook } from '../../src/market/tickers.ts';

const BTC = 1;
const USDT = 3;
const MARKET = 1;
const T0 = Date.UTC(2026, 0, 5);
const noRows = { query: async () => ({ rows: [], rowCount: 0 }) };

/** BTC/USDT as the demo seeds it: price scale 2, lot 0.0001 BTC, fees 0.1 %. */
function exchange() {
  const engine = Engine.create();
  let seq = 0;
  let nowMs = T0;
  const tickers = new TickerBook();
  const log: { command: Command; outcome: Outcome }[] = [];
  const apply = (command: Command): Outcome => {
    const outcome = engine.apply({ seq: ++seq, timeMs: nowMs, command });
    engine.checkInvariants();
    log.push({ command, outcome });
    for (const event of outcome.events) if (event.type === 'trade') tickers.add(tradeFact(event, nowMs));
    return outcome;
  };
  for (const command of [
    { type: 'addCurrency', currencyId: BTC, code: 'BTC', scale: 8 },
    { type: 'addCurrency', currencyId: USDT, code: 'USDT', scale: 6 },
    {
      type: 'addMarket',
      marketId: MARKET,
      baseCurrencyId: BTC,
      quoteCurrencyId: USDT,
      tickSize: '0.01',
      lotSize: '0.0001',
      minimumLots: 1,
      makerFeePpm: 1000,
      takerFeePpm: 1000,
    },
  ] as Command[]) {
    if (apply(command).code !== 0) throw new Error(`setup ${command.type} refused`);
  }
  return {
    engine,
    tickers,
    log,
    apply,
    now: () => nowMs,
    advance: (ms: number) => {
      nowMs += ms;
    },
  };
}

function tradeFact(event: Extract<EngineEvent, { type: 'trade' }>, timeMs: number): TradeFact {
  return {
    tradeId: event.tradeId,
    marketId: event.marketId,
    priceTicks: event.priceTicks,
    quantityLots: event.quantityLots,
    baseAmount: event.baseAmount,
    quoteAmount: event.quoteAmount,
    timeMs,
    takerSide: event.makerSide === 'buy' ? 'sell' : 'buy',
  };
}

async function makerFor(
  ex: ReturnType<typeof exchange>,
  config: Partial<MarketMakerConfig> = {},
  store: { query: (text: string) => Promise<{ rows: unknown[]; rowCount: number }> } = noRows,
) {
  const catalog = new MarketCatalog(ex.engine, noRows);
  await catalog.reload();
  const maker = new MarketMaker({
    engine: ex.engine,
    submit: async (command) => ex.apply(command),
    store: store as typeof noRows,
    catalog,
    logger: { info: () => {}, warn: () => {} },
    config: { ...config, intervalMs: 3_600_000 },
    seed: 5,
  });
  await maker.start();
  await maker.stop();
  return { maker, market: catalog.cachedById(MARKET) as MarketInfo };
}

function ownBook(engine: Engine): { bids: number[]; asks: number[] } {
  const orders = engine.spot.openOrders('marketMaker', MARKET);
  return {
    bids: orders.filter((order) => order.side === 'buy').map((order) => order.priceTicks),
    asks: orders.filter((order) => order.side === 'sell').map((order) => order.priceTicks),
  };
}

describe('market maker on a real engine', () => {
  it('quotes a ladder around a moving index, never crosses itself or overdraws, and never trades alone', async () => {
    const ex = exchange();
    const { maker } = await makerFor(ex);
    const simulator = new PriceSimulator({ seed: 9 });
    simulator.start(['BTC/USDT']);
    let commandsBefore = ex.log.length;
    for (let cycle = 0; cycle < 400; cycle++) {
      ex.advance(1000);
      const price = simulator.latest('BTC/USDT', ex.now())?.price ?? '';
      const indexTicks = Math.round(Number(price) * 100);
      ex.apply({ type: 'recordIndexPrice', marketId: MARKET, priceTicks: indexTicks });
      const logged = ex.log.length;
      await maker.cycle();
      const commands = ex.log.slice(logged);
      // Genesis funding comes once, in the first cycle; after it, at most four commands a cycle.
      const trading = commands.filter(({ command }) => command.type !== 'systemFund');
      expect(trading.length).toBeLessThanOrEqual(DEFAULT_MARKET_MAKER_CONFIG.maxCommandsPerCycle);
      for (const { command, outcome } of commands) {
        expect({ command: command.type, code: outcome.code }).toEqual({ command: command.type, code: 0 });
        for (const event of outcome.events) {
          // A quote that met another quote of its own owner would be cancelled as a self-trade.
          if (event.type === 'orderCancelled') expect(event.reason).not.toBe('selfTrade');
        }
      }
      const own = ownBook(ex.engine);
      if (own.bids.length > 0 && own.asks.length > 0)
        expect(Math.max(...own.bids)).toBeLessThan(Math.min(...own.asks));
      commandsBefore = ex.log.length;
    }
    expect(commandsBefore).toBeGreaterThan(400);
    const own = ownBook(ex.engine);
    expect(own.bids).toHaveLength(DEFAULT_MARKET_MAKER_CONFIG.levels);
    expect(own.asks).toHaveLength(DEFAULT_MARKET_MAKER_CONFIG.levels);
    const funding = ex.log.filter(({ command }) => command.type === 'systemFund');
    expect(
      funding.map(({ command }) => command.type === 'systemFund' && [command.owner, command.currencyId]),
    ).toEqual([
      ['marketMaker', BTC],
      ['marketMaker', USDT],
    ]);
    // The ladder sits around the index: the best bid below it, the best ask above it, within the reach of
    // the half spread and one grid step.
    const index = ex.engine.market.indexPrice(MARKET)?.priceTicks ?? 0;
    const grid = gridTicks(index, DEFAULT_MARKET_MAKER_CONFIG);
    const reach = (index * DEFAULT_MARKET_MAKER_CONFIG.halfSpreadPpm) / 1e6 + grid;
    expect(index - Math.max(...own.bids)).toBeLessThanOrEqual(reach);
    expect(Math.min(...own.asks) - index).toBeLessThanOrEqual(reach);
    // Only quotes, and only the market maker's: no trade at all without a user, and no order of the house.
    const trades = ex.log.flatMap(({ outcome }) => outcome.events.filter((event) => event.type === 'trade'));
    expect(trades).toEqual([]);
    const owners = new Set(
      ex.log.flatMap(({ command }) => (command.type === 'placeOrder' ? [command.owner] : [])),
    );
    expect(owners).toEqual(new Set(['marketMaker']));
    expect(ex.tickers.ticker(MARKET, ex.now()).lastTicks).toBeUndefined();

    // A user's market buy trades with the best ask: the only trade, with the user on one side.
    ex.apply({ type: 'deposit', userId: 7, currencyId: USDT, amount: 10_000_000_000n });
    const bestAsk = Math.min(...own.asks);
    const bought = ex.apply({
      type: 'placeOrder',
      owner: 7,
      marketId: MARKET,
      side: 'buy',
      kind: 'market',
      quantityLots: 1,
    });
    const fills = bought.events.filter((event) => event.type === 'trade');
    expect(
      fills.map((fill) => [fill.makerOwner, fill.takerOwner, fill.priceTicks, fill.quantityLots]),
    ).toEqual([['marketMaker', 7, bestAsk, 1]]);
    expect(ex.tickers.ticker(MARKET, ex.now()).lastTicks).toBe(bestAsk);
  });

  it('never takes: a user order resting across its ladder for 60 s of cycles is never traded by the maker', async () => {
    const ex = exchange();
    const { maker } = await makerFor(ex);
    const simulator = new PriceSimulator({ seed: 3 });
    simulator.start(['BTC/USDT']);
    const indexAt = () => Math.round(Number(simulator.latest('BTC/USDT', ex.now())?.price ?? '') * 100);
    ex.apply({ type: 'recordIndexPrice', marketId: MARKET, priceTicks: indexAt() });
    // Before the maker's first quote, a user rests a bid 0.2 % above the index: across where the ladder's
    // asks go.
    ex.apply({ type: 'deposit', userId: 7, currencyId: USDT, amount: 100_000_000_000n });
    ex.apply({ type: 'deposit', userId: 8, currencyId: BTC, amount: 100_000_000n });
    const index = indexAt();
    const bid = ex.apply({
      type: 'placeOrder',
      owner: 7,
      marketId: MARKET,
      side: 'buy',
      kind: 'limit',
      priceTicks: Math.round(index * 1.002),
      quantityLots: 3,
    });
    expect(bid.code).toBe(0);
    const bidId = (bid.reply as { orderId: number }).orderId;
    let askId = 0;
    const logged = ex.log.length;
    for (let second = 0; second < 60; second++) {
      ex.advance(1000);
      ex.apply({ type: 'recordIndexPrice', marketId: MARKET, priceTicks: indexAt() });
      await maker.cycle();
      if (second === 19) {
        // Twenty seconds of cycles with the user's bid across the ladder: still there, whole.
        expect(ex.engine.spot.order(bidId)).toMatchObject({ remainingLots: 3 });
        expect(ownBook(ex.engine).asks.length).toBeGreaterThan(0);
        // Then a user ask below the maker's bids: it takes the user's bid and the maker's bids above its
        // price (the user is the taker, which is fine), and the rest of it rests across the ladder.
        const ask = ex.apply({
          type: 'placeOrder',
          owner: 8,
          marketId: MARKET,
          side: 'sell',
          kind: 'limit',
          priceTicks: Math.round(indexAt() * 0.998),
          quantityLots: 9_000,
        });
        expect(ask.reply).toMatchObject({ status: 'resting' });
        askId = (ask.reply as { orderId: number }).orderId;
      }
    }
    const makerCommands = ex.log.slice(logged).filter(({ command }) => command.type === 'placeOrder');
    const trades = ex.log
      .slice(logged)
      .flatMap(({ outcome }) => outcome.events.filter((event) => event.type === 'trade'));
    // The maker never was the taker of a trade: it traded only as the resting side of the user's ask.
    expect(trades.filter((trade) => trade.takerOwner === 'marketMaker')).toEqual([]);
    expect(trades.some((trade) => trade.makerOwner === 'marketMaker')).toBe(true);
    expect(trades.every((trade) => trade.takerOwner === 8)).toBe(true);
    // The rest of the user's ask rested across the ladder for the last 40 s, and is still there.
    const rest = ex.engine.spot.order(askId);
    expect(rest?.remainingLots).toBeGreaterThan(0);
    expect(Math.max(...ownBook(ex.engine).bids)).toBeLessThan(rest?.priceTicks ?? 0);
    expect(makerCommands.length).toBeGreaterThan(10);
    // Its quotes are post-only: each would be refused by the engine rather than take.
    for (const { command } of makerCommands)
      if (command.type === 'placeOrder' && command.owner === 'marketMaker')
        expect(command.timeInForce).toBe('postOnly');
  });

  it('follows the settings an administrator stored for the pair: fewer levels, then out of the book', async () => {
    const ex = exchange();
    let pairRow: Record<string, unknown> | undefined;
    const store = {
      query: async (text: string) => {
        const rows = text.includes('market_maker_settings') && pairRow ? [pairRow] : [];
        return { rows, rowCount: rows.length };
      },
    };
    const { maker } = await makerFor(ex, {}, store);
    ex.apply({ type: 'recordIndexPrice', marketId: MARKET, priceTicks: 6_700_000 });
    const settle = async () => {
      for (let cycle = 0; cycle < 20; cycle++) {
        ex.advance(1000);
        await maker.cycle();
      }
    };
    await settle();
    expect(ownBook(ex.engine).bids).toHaveLength(DEFAULT_MARKET_MAKER_CONFIG.levels);
    const row = {
      market_id: MARKET,
      enabled: true,
      levels: 3,
      half_spread_ppm: null,
      level_step_ppm: null,
      level_notional: null,
    };
    pairRow = row;
    await settle();
    expect(ownBook(ex.engine).bids).toHaveLength(3);
    expect(ownBook(ex.engine).asks).toHaveLength(3);
    pairRow = { ...row, enabled: false };
    const logged = ex.log.length;
    await settle();
    expect(ownBook(ex.engine)).toEqual({ bids: [], asks: [] });
    // Disabled: only cancels, no quote.
    expect(new Set(ex.log.slice(logged).map(({ command }) => command.type))).toEqual(
      new Set(['cancelOrder']),
    );
  });

  it('skips a pair whose stored settings it cannot use, instead of failing the round', async () => {
    const ex = exchange();
    const row = {
      market_id: MARKET,
      enabled: true,
      levels: null,
      half_spread_ppm: null,
      level_step_ppm: null,
      // Finer than USDT's six decimals: the quote currency cannot carry it.
      level_notional: '0.0000001',
    };
    const store = {
      query: async (text: string) => {
        const rows = text.includes('market_maker_settings') ? [row] : [];
        return { rows, rowCount: rows.length };
      },
    };
    const { maker } = await makerFor(ex, {}, store);
    ex.apply({ type: 'recordIndexPrice', marketId: MARKET, priceTicks: 6_700_000 });
    await expect(maker.cycle()).resolves.toBeUndefined();
    // Funded, but no quote placed with a level value the quote currency cannot carry.
    expect(ownBook(ex.engine)).toEqual({ bids: [], asks: [] });
  });

  it('stops buying when its base holding reaches the limit', async () => {
    const ex = exchange();
    const { maker, market } = await makerFor(ex);
    ex.apply({ type: 'recordIndexPrice', marketId: MARKET, priceTicks: 6_700_000 });
    await maker.cycle();
    // Far more BTC than twice the target (the target is 250,000 USDT of BTC, about 3.73 BTC).
    ex.apply({ type: 'systemFund', owner: 'marketMaker', currencyId: BTC, amount: 10n * 100_000_000n });
    const logged = ex.log.length;
    for (let cycle = 0; cycle < 20; cycle++) {
      ex.advance(1000);
      await maker.cycle();
    }
    const placed = ex.log.slice(logged).map(({ command }) => command);
    const makerBuys = placed.filter(
      (command) => command.type === 'placeOrder' && command.owner === 'marketMaker' && command.side === 'buy',
    );
    expect(makerBuys).toEqual([]);
    expect(placed.some((command) => command.type === 'placeOrder' && command.side === 'sell')).toBe(true);
    expect(market.symbol).toBe('BTC/USDT');
  });

  it('sizes genesis funding from the index: inventory value in base and in quote', async () => {
    const ex = exchange();
    const { market } = await makerFor(ex);
    const amounts = genesisAmounts([{ market, indexTicks: 5_000_000 }], DEFAULT_MARKET_MAKER_CONFIG);
    // 250,000 USDT at 50,000.00 is 5 BTC.
    expect(amounts.get(BTC)).toBe(500_000_000n);
    expect(amounts.get(USDT)).toBe(250_000_000_000n);
  });
});

describe('ladder', () => {
  it('puts levels on a 1-2-5 grid, a half spread away from the index', () => {
    const config = DEFAULT_MARKET_MAKER_CONFIG;
    expect(gridTicks(6_725_000, config)).toBe(2000);
    expect(gridTicks(52, config)).toBe(1);
    const { bids, asks } = ladderPrices(6_725_000, config);
    expect(bids[0]).toBe(6_720_000);
    expect(asks[0]).toBe(6_730_000);
    expect(bids).toHaveLength(10);
    expect(asks[9]).toBe(6_730_000 + 9 * 2000);
  });
});

describe('planCycle on random situations', () => {
  const market: MarketInfo = {
    marketId: MARKET,
    symbol: 'BTC/USDT',
    baseCurrencyId: BTC,
    quoteCurrencyId: USDT,
    baseCode: 'BTC',
    quoteCode: 'USDT',
    baseScale: 8,
    quoteScale: 6,
    priceScale: 2,
    tickUnits: 1n,
    lotBaseMinor: 10_000n,
    quoteMinorPerTickLot: 1n,
    quantityScale: 4,
    minimumLots: 1,
    minNotionalMinor: 0n,
    makerFeePpm: 0,
    takerFeePpm: 0,
    isDisplay: true,
    displayOrder: 1,
    logo: null,
    leverShareSize: 1_000_000n,
    leverSpreadPpm: 0,
    leverFeePpm: 0,
  };
  const order = fc.record({
    orderId: fc.integer({ min: 1, max: 1_000_000 }),
    side: fc.constantFrom('buy' as const, 'sell' as const),
    priceTicks: fc.integer({ min: 6_000_000, max: 7_400_000 }),
    remainingLots: fc.integer({ min: 1, max: 5000 }),
  });
  const situation = fc.record({
    indexTicks: fc.integer({ min: 6_300_000, max: 7_100_000 }),
    orders: fc.uniqueArray(order, { selector: (entry) => entry.orderId, maxLength: 30 }),
    makerBase: fc.bigInt({ min: 0n, max: 2_000_000_000n }),
    makerQuote: fc.bigInt({ min: 0n, max: 1_000_000_000_000n }),
    // A user's best bid and ask (0: none), anywhere around the index, also across the ladder.
    othersBid: fc.oneof(fc.constant(0), fc.integer({ min: 6_300_000, max: 7_100_000 })),
    othersAsk: fc.oneof(fc.constant(0), fc.integer({ min: 6_300_000, max: 7_100_000 })),
  });

  it("never plans a quote through its own book or a user's, beyond its money, or more than the budget", () => {
    fc.assert(
      fc.property(situation, (input) => {
        // The maker's own quotes are never crossed (the engine would not let them rest so).
        const bids = input.orders.filter((entry) => entry.side === 'buy');
        const asks = input.orders.filter((entry) => entry.side === 'sell');
        const bestAsk = Math.min(...asks.map((entry) => entry.priceTicks));
        const orders: OrderView[] = [...bids.filter((entry) => entry.priceTicks < bestAsk), ...asks].map(
          (entry) => ({
            orderId: entry.orderId,
            owner: 'marketMaker',
            marketId: MARKET,
            side: entry.side,
            kind: 'limit',
            priceTicks: entry.priceTicks,
            quantityLots: entry.remainingLots,
            filledLots: 0,
            remainingLots: entry.remainingLots,
            lockedAmount:
              entry.side === 'buy'
                ? BigInt(entry.priceTicks * entry.remainingLots)
                : BigInt(entry.remainingLots) * 10_000n,
            quoteFilled: 0n,
            feePaid: 0n,
            acceptedTimeMs: 0,
            updatedTimeMs: 0,
          }),
        );
        const view: MakerView = {
          market,
          minimumLots: 1,
          indexTicks: input.indexTicks,
          orders,
          makerBase: { available: input.makerBase, locked: 0n },
          makerQuote: { available: input.makerQuote, locked: 0n },
          othersBestBidTicks: input.othersBid,
          othersBestAskTicks: input.othersAsk,
          draw: (k, bound) => Math.abs(k) % bound,
        };
        const plan = planCycle(view, DEFAULT_MARKET_MAKER_CONFIG);
        expect(plan.length).toBeLessThanOrEqual(DEFAULT_MARKET_MAKER_CONFIG.maxCommandsPerCycle);
        const cancelled = new Set(
          plan.flatMap((command) => (command.type === 'cancelOrder' ? [command.orderId] : [])),
        );
        const remaining = orders.filter((entry) => !cancelled.has(entry.orderId));
        let highestBid = Math.max(
          0,
          ...remaining.filter((entry) => entry.side === 'buy').map((entry) => entry.priceTicks),
        );
        let lowestAsk = Math.min(
          Infinity,
          ...remaining.filter((entry) => entry.side === 'sell').map((entry) => entry.priceTicks),
        );
        let spentQuote = 0n;
        let spentBase = 0n;
        for (const command of plan) {
          // Only the market maker's own cancels and limit quotes: nothing meant to take.
          expect(command.type === 'cancelOrder' || command.type === 'placeOrder').toBe(true);
          if (command.type !== 'placeOrder') continue;
          expect([command.owner, command.kind, command.timeInForce]).toEqual([
            'marketMaker',
            'limit',
            'postOnly',
          ]);
          const price = command.priceTicks ?? 0;
          if (command.side === 'buy') {
            expect(price).toBeLessThan(lowestAsk);
            expect(price).toBeLessThan(input.indexTicks);
            // Never at or through a user's ask: it would trade as the taker.
            if (input.othersAsk > 0) expect(price).toBeLessThan(input.othersAsk);
            highestBid = Math.max(highestBid, price);
            spentQuote += BigInt(price * command.quantityLots);
          } else {
            expect(price).toBeGreaterThan(highestBid);
            expect(price).toBeGreaterThan(input.indexTicks);
            if (input.othersBid > 0) expect(price).toBeGreaterThan(input.othersBid);
            lowestAsk = Math.min(lowestAsk, price);
            spentBase += BigInt(command.quantityLots) * 10_000n;
          }
        }
        const freed = (side: 'buy' | 'sell') =>
          orders
            .filter((entry) => entry.side === side && cancelled.has(entry.orderId))
            .reduce((sum, entry) => sum + entry.lockedAmount, 0n);
        expect(spentQuote).toBeLessThanOrEqual(input.makerQuote + freed('buy'));
        expect(spentBase).toBeLessThanOrEqual(input.makerBase + freed('sell'));
      }),
      { numRuns: 300 },
    );
  });
});
