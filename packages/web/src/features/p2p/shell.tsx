import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Tooltip } from 'antd';
import { InfoCircleOutlined } from '@ant-design/icons';
import { useIsSeller, type P2pCounters } from '../../data/p2p.ts';
import { dateTimeOf } from '../../components/trading/display.ts';
import { cancellationsLeft } from './p2p-math.ts';

// What every P2P screen shows at the top: the area's tabs (the shop only for merchants, is_seller 1, kept
// live by the `seller` push) and the user's cancellation counter for the day.

type TabKey = 'book' | 'orders' | 'shop' | 'records' | 'methods';

export function P2pTabs({ active }: { active: TabKey }) {
  const { t } = useTranslation();
  const isSeller = useIsSeller();
  const tabs: { key: TabKey; to: string; label: string }[] = [
    { key: 'book', to: '/fiatradCenter', label: t('p2p.tabs.book') },
    { key: 'orders', to: '/legalTrade', label: t('p2p.tabs.orders') },
    ...(isSeller ? [{ key: 'shop' as const, to: '/myLegalShops', label: t('p2p.tabs.shop') }] : []),
    { key: 'records', to: '/transferRecord', label: t('p2p.tabs.records') },
    { key: 'methods', to: '/userSetting', label: t('p2p.tabs.methods') },
  ];
  return (
    <nav className="fx-p2p-tabs" aria-label={t('p2p.title')}>
      {tabs.map((tab) => (
        <NavLink
          key={tab.key}
          to={tab.to}
          className={tab.key === active ? 'fx-p2p-tab is-active' : 'fx-p2p-tab'}
          aria-current={tab.key === active ? 'page' : undefined}
          data-testid={`p2p-tab-${tab.key}`}
        >
          {tab.label}
        </NavLink>
      ))}
    </nav>
  );
}

/** "Cancellations today: 1 of 3" with the rule, and the reset time while restricted. */
export function CountersBar({ counters }: { counters: P2pCounters }) {
  const { t } = useTranslation();
  const left = cancellationsLeft(counters);
  return (
    <div
      className={counters.restricted_until !== null ? 'fx-p2p-counters is-restricted' : 'fx-p2p-counters'}
      data-testid="p2p-counters"
    >
      <span>{t('p2p.counters.today', { n: counters.cancellations_today, limit: counters.limit })}</span>
      <span className="fx-p2p-label">
        {counters.restricted_until !== null
          ? t('p2p.counters.until', { time: dateTimeOf(counters.restricted_until) })
          : t('p2p.counters.left', { n: left })}
      </span>
      <Tooltip title={t('p2p.counters.rule', { limit: counters.limit })}>
        <InfoCircleOutlined aria-label={t('p2p.counters.ruleLabel')} />
      </Tooltip>
    </div>
  );
}
