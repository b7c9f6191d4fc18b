import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LeverTradePayload } from '@fairex/shared/socket-events.ts';
import { useSocketEvent } from '../../data/feeds.ts';
import { onReconnect } from '../../data/market-feeds.ts';
import { fetchLeverDealAll } from '../../data/lever.ts';
import { useSession } from '../../data/session.ts';
import { LeverFrame } from './LeverFrame.tsx';
import { PositionsPanel } from './PositionsPanel.tsx';
import { RiskBar } from './RiskBar.tsx';

// /leverList (spec 02 section 2.14): the user's leverage orders across every pair, four tabs (holding,
// pending, closed, revoked), 10 a page, with the risk of each quote currency the user trades in.

export default function LeverListPage() {
  const { t } = useTranslation();
  const loggedIn = useSession((state) => state.token !== null);
  const queryClient = useQueryClient();
  const all = useQuery({
    queryKey: ['lever', 'dealall', 'all'],
    queryFn: ({ signal }) => fetchLeverDealAll(null, signal),
    enabled: loggedIn,
  });
  // Profits and risk move with the mark: the server pushes `lever_trade` to holders on each mark move (no
  // polling); after a reconnect, pushes may have been missed, so read again.
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['lever'] });
  useSocketEvent('lever_trade', (_payload: LeverTradePayload) => refresh());
  useEffect(() => onReconnect(() => refresh()), [queryClient]); // eslint-disable-line react-hooks/exhaustive-deps
  const marks = new Map((all.data?.trades_all ?? []).map((row) => [row.symbol, row.update_price]));
  return (
    <LeverFrame title={t('lever.pages.list')} testId="lever-list-page">
      {(all.data?.risks ?? []).map((risk) => (
        <RiskBar key={risk.legal_id} risk={risk} />
      ))}
      <PositionsPanel pair={null} loggedIn={loggedIn} markOf={(symbol) => marks.get(symbol) ?? null} />
    </LeverFrame>
  );
}
