import { useTranslation } from 'react-i18next';
import type { MarketDetailPayload } from '@fairex/shared/socket-events.ts';
import { formatPrice } from '../../format/index.ts';
import { clockOf, withZone } from './display.ts';
import type { SpotMarketInfo, TradeDetail } from '../../data/spot.ts';
import { EmptyNote } from './PanelStates.tsx';

// The tape: the market's latest trades, newest first, kept to 27 (spec 01 section 9). Trades come from the
// `market_detail` push when it is live and from the trading answer (`complete`) before the first push;
// both are merged by trade id, so no trade shows twice and none is made up.

export const TAPE_LENGTH = 27;

export interface TapeTrade {
  id: number;
  time: number;
  price: string;
  amount: string;
  direction: 'buy' | 'sell';
}

/** The newest trades of both sources by id, at most TAPE_LENGTH. */
export function mergeTape(
  fromDeal: readonly TradeDetail[] | undefined,
  fromPush: MarketDetailPayload | undefined,
): TapeTrade[] {
  const byId = new Map<number, TapeTrade>();
  for (const trade of fromDeal ?? []) {
    byId.set(trade.id, {
      id: trade.id,
      time: trade.time,
      price: trade.price,
      amount: trade.number,
      direction: trade.way,
    });
  }
  for (const trade of fromPush?.data ?? []) {
    byId.set(trade.id, {
      id: trade.id,
      time: trade.time_ms,
      price: trade.price,
      amount: trade.amount,
      direction: trade.direction,
    });
  }
  return [...byId.values()].sort((a, b) => b.id - a.id).slice(0, TAPE_LENGTH);
}

interface RecentTradesProps {
  market: SpotMarketInfo;
  trades: readonly TapeTrade[];
  onPickPrice: (price: string) => void;
}

export function RecentTrades({ market, trades, onPickPrice }: RecentTradesProps) {
  const { t } = useTranslation();
  return (
    <section
      className="fx-spot-panel fx-spot-trades"
      aria-labelledby="fx-spot-trades-title"
      data-testid="recent-trades"
    >
      <header className="fx-spot-panel-head">
        <h2 id="fx-spot-trades-title" className="fx-spot-panel-title">
          {t('spot.trades.title')}
        </h2>
      </header>
      <div className="fx-spot-columns">
        <span>{t('spot.trades.price', { quote: market.legal_name })}</span>
        <span>{t('spot.trades.amount', { base: market.currency_name })}</span>
        <span data-testid="trades-time-title">{withZone(t('spot.trades.time'))}</span>
      </div>
      {trades.length === 0 ? (
        <EmptyNote className="fx-spot-empty">{t('spot.trades.empty')}</EmptyNote>
      ) : (
        <ol className="fx-spot-tape">
          {trades.map((trade) => (
            <li key={trade.id} className="fx-spot-tape-row" data-testid="tape-row">
              <button
                type="button"
                className={`fx-spot-tape-price is-${trade.direction === 'buy' ? 'up' : 'down'}`}
                onClick={() => onPickPrice(trade.price)}
              >
                {formatPrice(trade.price, market.price_scale)}
              </button>
              <span>{trade.amount}</span>
              <span className="fx-spot-muted">{clockOf(trade.time)}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
