// The spot push of spec 03 section 9, made from committed engine events only (what a user is told has
// happened is always durable; `update_balance` is the wallets area's, wallets/balance-pushes.ts):
// - `transaction` (the book with the last price) to `market:<symbol>` for every market whose book or last
//   price a batch changed, at most BOOK_PUSH_INTERVAL_MS apart per process (or once per tick of the
//   market-data publisher, whose depth and trades then leave in the same turn), so a burst of orders costs
//   a bounded number of book snapshots.
//
// The runner applies a command to the engine at once and commits it a moment later, so the live engine may
// be ahead of the journal. A book is therefore read only when the engine stands exactly at the end of a
// committed batch (nothing applied after it); under load that holds after most batches. Only if it has not
// held for MAX_BOOK_STALENESS_MS is the live book sent, which is then at most one batch ahead.
import { hasUserSide } from '@fairex/engine';
import type { Command, Engine, EngineEvent } from '@fairex/engine';
import type { TransactionPayload } from '@fairex/shared';
import { marketChannel } from '@fairex/shared';
import type { CommittedBatch } from '../engine-runner/index.ts';
import type { Realtime } from '../realtime/index.ts';
import type { LastPrices } from './last-prices.ts';
import type { SpotMarket, SpotMarkets } from './markets.ts';
import { formatLots, formatPrice } from './markets.ts';

export const BOOK_PUSH_INTERVAL_MS = 100;
export const MAX_BOOK_STALENESS_MS = 1_000;
/** Levels per side in a `transaction` push. */
export const PUSHED_BOOK_LEVELS = 50;

export interface SpotPushesOptions {
  engine: Engine;
  realtime: Pick<Realtime, 'publish'>;
  markets: SpotMarkets;
  lastPrices: LastPrices;
  onCommitted(listener: (batch: CommittedBatch<Command, EngineEvent>) => void): () => void;
  intervalMs?: number;
  /**
   * The market-data publisher's tick, when there is one: books are then due at each tick instead of
   * every `intervalMs`, so that a market channel's `transaction` leaves in the same turn as its
   * `market_depth` and `market_detail`, and each subscriber gets them in one write.
   */
  tick?(listener: () => void): () => void;
}

export interface SpotPushes {
  /** Sends the book of a market now (e.g. to a fresh subscriber's channel). */
  pushBook(marketId: number): void;
  stop(): void;
}

export function startSpotPushes(options: SpotPushesOptions): SpotPushes {
  const intervalMs = options.intervalMs ?? BOOK_PUSH_INTERVAL_MS;
  const dirtyMarkets = new Set<number>();
  const seqBySymbol = new Map<string, number>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastFlushMs = Number.NEGATIVE_INFINITY;
  let dirtySinceMs = 0;
  let committedSeq = 0;
  /** With a tick: whether one came since the last push. */
  let ticked = false;

  const publishBook = (market: SpotMarket) => {
    const seq = (seqBySymbol.get(market.symbol) ?? 0) + 1;
    seqBySymbol.set(market.symbol, seq);
    const depth = options.engine.spot.depth(market.marketId, PUSHED_BOOK_LEVELS);
    const lastTicks = options.lastPrices.cached(market.marketId);
    const level = ([price, lots]: [number, number]) => ({
      price: formatPrice(market, price),
      number: formatLots(market, lots),
    });
    const payload: TransactionPayload = {
      type: 'transaction',
      symbol: market.symbol,
      legal_id: market.quoteCurrencyId,
      currency_id: market.baseCurrencyId,
      seq,
      last_price: lastTicks === undefined ? '' : formatPrice(market, lastTicks),
      in: depth.bids.map(level),
      out: depth.asks.map(level),
    };
    options.realtime.publish(marketChannel(market.symbol), 'transaction', payload);
  };

  const pushBook = (marketId: number) => {
    const market = options.markets.cachedById(marketId);
    if (market !== undefined) return publishBook(market);
    // Not loaded yet (the first order of a fresh process): load, then push.
    void options.markets.byId(marketId).then((loaded) => loaded && publishBook(loaded));
  };

  /** Sends the dirty books when they are due and the engine holds exactly the committed state. */
  const flushIfDue = () => {
    if (dirtyMarkets.size === 0) return;
    const nowMs = Date.now();
    const dueMs = lastFlushMs + intervalMs;
    const due = options.tick === undefined ? nowMs >= dueMs : ticked;
    const atCommittedHead = options.engine.lastSeq === committedSeq;
    if (due && (atCommittedHead || nowMs - dirtySinceMs >= MAX_BOOK_STALENESS_MS)) {
      lastFlushMs = nowMs;
      ticked = false;
      const markets = [...dirtyMarkets];
      dirtyMarkets.clear();
      for (const marketId of markets) pushBook(marketId);
      return;
    }
    // Not yet: the next committed batch tries again, and this timer (or the next tick) covers a quiet
    // moment with none.
    if (timer === null && options.tick === undefined) {
      const waitMs =
        nowMs < dueMs ? dueMs - nowMs : Math.max(1, dirtySinceMs + MAX_BOOK_STALENESS_MS - nowMs);
      timer = setTimeout(() => {
        timer = null;
        flushIfDue();
      }, waitMs);
    }
  };

  const onBatch = (batch: CommittedBatch<Command, EngineEvent>) => {
    committedSeq = batch.lastSeq;
    const wasClean = dirtyMarkets.size === 0;
    for (const { outcome } of batch.entries) {
      for (const event of outcome.events) {
        switch (event.type) {
          case 'trade':
            if (hasUserSide(event)) options.lastPrices.record(event.marketId, event.priceTicks);
            dirtyMarkets.add(event.marketId);
            break;
          case 'orderRested':
          case 'orderCancelled':
            dirtyMarkets.add(event.marketId);
            break;
          default:
            break;
        }
      }
    }
    if (wasClean && dirtyMarkets.size > 0) dirtySinceMs = Date.now();
    flushIfDue();
  };

  const stopListening = options.onCommitted(onBatch);
  const stopTicking = options.tick?.(() => {
    ticked = true;
    flushIfDue();
  });
  return {
    pushBook,
    stop: () => {
      stopListening();
      stopTicking?.();
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
