import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fetchMicroStats } from '../../data/micro.ts';
import { EmptyNote } from '../../components/trading/PanelStates.tsx';

// The public daily figures of seconds contracts (GET /api/microtrade/stats): orders, wins, losses, draws,
// voids and the house's result per Asia/Shanghai day, from the settled orders. No login needed. A day the
// server withheld (orders from fewer than 20 accounts) says "fewer than 20" instead of its figures.

export function StatsPanel() {
  const { t } = useTranslation();
  const stats = useQuery({
    queryKey: ['micro', 'stats'],
    queryFn: ({ signal }) => fetchMicroStats(30, signal),
    refetchInterval: 60_000,
  });
  const days = stats.data?.days ?? [];
  return (
    <section className="fx-micro-panel fx-micro-stats" data-testid="micro-stats">
      <div className="fx-micro-title">{t('micro.statsTitle')}</div>
      {days.length === 0 ? (
        <EmptyNote>{t('micro.statsEmpty')}</EmptyNote>
      ) : (
        <table className="fx-micro-table">
          <thead>
            <tr>
              <th>{t('micro.statsDay')}</th>
              <th>{t('micro.currency')}</th>
              <th>{t('micro.statsOrders')}</th>
              <th>{t('micro.outcome.win')}</th>
              <th>{t('micro.outcome.loss')}</th>
              <th>{t('micro.outcome.draw')}</th>
              <th>{t('micro.outcome.void')}</th>
              <th>{t('micro.statsHouse')}</th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) =>
              day.below_minimum ? (
                <tr key={`${day.day}-${day.currency_name}`} data-testid="micro-stats-withheld">
                  <td>{day.day}</td>
                  <td>{day.currency_name}</td>
                  <td colSpan={6}>{t('home.stats.fewerThan', { min: day.minimum_accounts })}</td>
                </tr>
              ) : (
                <tr key={`${day.day}-${day.currency_name}`}>
                  <td>{day.day}</td>
                  <td>{day.currency_name}</td>
                  <td>{day.orders}</td>
                  <td>{day.wins}</td>
                  <td>{day.losses}</td>
                  <td>{day.draws}</td>
                  <td>{day.voids}</td>
                  <td>{day.house_pnl}</td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      )}
    </section>
  );
}
