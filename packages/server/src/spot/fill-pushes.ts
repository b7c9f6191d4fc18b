// `my_fill` (socket-events.ts): every fill of a user's own spot order, to that user's room, for every pair,
// so the web app can tell the user wherever they are (not only on the pair they have on screen). Made from
// committed engine events only: a user is told of a fill once it is durable. Both sides of a trade are
// told, each with their own order, side, role and fee; system owners (the market maker) have no room.
import type { AccountOwner, Command, Engine, EngineEvent } from '@fairex/engine';
import type { MyFillPayload } from '@fairex/shared';
import { formatDecimal } from '@fairex/shared';
import type { CommittedBatch } from '../engine-runner/index.ts';
import type { Realtime } from '../realtime/index.ts';
import type { SpotMarkets } from './markets.ts';
import { formatBaseMinor, formatPrice, formatQuoteMinor } from './markets.ts';

export interface FillPushesOptions {
  engine: Pick<Engine, 'ledger'>;
  realtime: Pick<Realtime, 'toUser' | 'mayReachUser'>;
  markets: Pick<SpotMarkets, 'cachedById'>;
  onCommitted(listener: (batch: CommittedBatch<Command, EngineEvent>) => void): () => void;
  /**
   * Remembers that the user was told of what the batch up to `seq` did (the runner's noteAcknowledged), so
   * that their next read waits until the projections hold the fill and the order it may have closed.
   */
  acknowledge?(userId: number, seq: number): void;
}

type Trade = Extract<EngineEvent, { type: 'trade' }>;

export function startFillPushes(options: FillPushesOptions): () => void {
  const { engine, realtime } = options;
  const push = (trade: Trade, timeMs: number, role: 'maker' | 'taker', seq: number) => {
    const owner: AccountOwner = role === 'maker' ? trade.makerOwner : trade.takerOwner;
    if (typeof owner !== 'number' || !realtime.mayReachUser(owner)) return;
    const market = options.markets.cachedById(trade.marketId);
    if (market === undefined) return;
    const side = role === 'maker' ? trade.makerSide : trade.makerSide === 'buy' ? 'sell' : 'buy';
    const feeCurrency = engine.ledger.currency(
      role === 'maker' ? trade.makerFeeCurrencyId : trade.takerFeeCurrencyId,
    );
    const payload: MyFillPayload = {
      type: 'my_fill',
      symbol: market.symbol,
      legal_id: market.quoteCurrencyId,
      currency_id: market.baseCurrencyId,
      order_id: role === 'maker' ? trade.makerOrderId : trade.takerOrderId,
      trade_id: trade.tradeId,
      side,
      role,
      price: formatPrice(market, trade.priceTicks),
      number: formatBaseMinor(market, trade.baseAmount),
      total: formatQuoteMinor(market, trade.quoteAmount),
      fee: formatDecimal(role === 'maker' ? trade.makerFee : trade.takerFee, feeCurrency?.scale ?? 0),
      fee_currency: feeCurrency?.code ?? '',
      time: timeMs,
    };
    options.acknowledge?.(owner, seq);
    realtime.toUser(owner, 'my_fill', payload);
  };
  return options.onCommitted((batch) => {
    for (const { envelope, outcome } of batch.entries) {
      for (const event of outcome.events) {
        if (event.type !== 'trade') continue;
        push(event, envelope.timeMs, 'maker', batch.lastSeq);
        push(event, envelope.timeMs, 'taker', batch.lastSeq);
      }
    }
  });
}
