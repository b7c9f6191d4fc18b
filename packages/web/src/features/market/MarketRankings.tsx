import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Tabs } from 'antd';
import { directionOf, formatCompact, formatFixed, formatPercent } from '../../format/index.ts';
import { shownPrice, storeChosenPair } from '../../data/market.ts';
import { ShownPriceText } from '../../components/MarkTag.tsx';
import type { Language } from '../../i18n/languages.ts';
import { PRICE_DECIMALS, gainRanking, turnoverRanking, type BoardRow } from './board-rows.ts';
import { CoinPair } from './CoinPair.tsx';

type RankingKind = 'turnover' | 'gain';

/** How many pairs a ranking lists. */
export const RANKING_SIZE = 10;

interface RankingProps {
  rows: readonly BoardRow[];
  language: Language;
}

/** The side panel: pairs ranked by 24-hour turnover, or by 24-hour gain. */
export function MarketRankings({ rows, language }: RankingProps) {
  const { t } = useTranslation();
  const [active, setActive] = useState<RankingKind>('turnover');
  return (
    <aside className="fx-market-side" aria-label={t('market.rankings')} data-testid="market-rankings">
      <Tabs
        activeKey={active}
        onChange={(key) => setActive(key === 'gain' ? 'gain' : 'turnover')}
        destroyOnHidden
        items={[
          {
            key: 'turnover',
            label: <span data-testid="ranking-tab-turnover">{t('market.turnoverRanking')}</span>,
            children: <RankingList kind="turnover" rows={rows} language={language} />,
          },
          {
            key: 'gain',
            label: <span data-testid="ranking-tab-gain">{t('market.gainRanking')}</span>,
            children: <RankingList kind="gain" rows={rows} language={language} />,
          },
        ]}
      />
    </aside>
  );
}

function RankingList({ kind, rows, language }: RankingProps & { kind: RankingKind }) {
  const ranked = (kind === 'turnover' ? turnoverRanking(rows) : gainRanking(rows)).slice(0, RANKING_SIZE);
  return (
    <ol className="fx-ranking" data-testid={`ranking-${kind}`}>
      {ranked.map((row, index) => (
        <RankingItem key={row.key} row={row} place={index + 1} kind={kind} language={language} />
      ))}
    </ol>
  );
}

interface RankingItemProps {
  row: BoardRow;
  place: number;
  kind: RankingKind;
  language: Language;
}

/** One ranked pair; rendered again only when its row or its place changes. */
const RankingItem = memo(function RankingItem({ row, place, kind, language }: RankingItemProps) {
  return (
    <li>
      <Link to="/dealCenter" className="fx-ranking-row" onClick={() => storeChosenPair(row)}>
        <span className="fx-ranking-place" data-top={place <= 3 ? 'true' : undefined}>
          {place}
        </span>
        <CoinPair row={row} compact />
        <span className="fx-ranking-price fx-num" data-kind={shownPrice(row).kind}>
          <ShownPriceText shown={shownPrice(row)} format={(price) => formatFixed(price, PRICE_DECIMALS)} />
        </span>
        {kind === 'turnover' ? (
          <span className="fx-ranking-value fx-num">{formatCompact(row.amount, language)}</span>
        ) : (
          <span className="fx-ranking-value fx-move-badge fx-num" data-direction={directionOf(row.change)}>
            {formatPercent(row.change)}
          </span>
        )}
      </Link>
    </li>
  );
});
