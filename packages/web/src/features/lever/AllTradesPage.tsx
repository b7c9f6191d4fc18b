import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useMarketFeed } from '../../data/feeds.ts';
import { pairSymbol, useDeal } from '../../data/spot.ts';
import { MarketList } from '../../components/trading/MarketList.tsx';
import { RecentTrades, mergeTape } from '../../components/trading/RecentTrades.tsx';
import { choosePair, syncPairFromStorage, usePair } from '../spot/pair.ts';
import { LeverFrame } from './LeverFrame.tsx';

// /allTransaction (spec 01 section 2): the leverage page's "all trades" tab on a page of its own: the
// chosen pair's latest trades, live from the `market_detail` feed, with the market list to switch pairs.

export default function AllTradesPage() {
  const { t } = useTranslation();
  useEffect(() => syncPairFromStorage(), []);
  const pair = usePair();
  const symbol = pairSymbol(pair);
  const deal = useDeal(pair, false);
  const feed = useMarketFeed(symbol);
  const tape = useMemo(
    () => mergeTape(deal.data?.complete, feed?.trades),
    [deal.data?.complete, feed?.trades],
  );
  const market = deal.data?.market;
  return (
    <LeverFrame title={t('lever.pages.allTrades', { symbol })} testId="all-trades-page" guarded={false}>
      <div className="fx-lever-all-trades">
        <MarketList pair={pair} onChoose={choosePair} />
        <div>
          {market === undefined ? null : (
            <RecentTrades market={market} trades={tape} onPickPrice={() => undefined} />
          )}
        </div>
      </div>
    </LeverFrame>
  );
}
