import type { ReactNode } from 'react';
import { NavLink, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { RequireLogin } from '../auth/RequireLogin.tsx';
import '../spot/spot.css';
import './lever.css';

const LINKS = [
  { to: '/leverdealCenter', key: 'trade' },
  { to: '/leverList', key: 'orders' },
  { to: '/leverTransactions', key: 'open' },
  { to: '/leverRecord', key: 'history' },
  { to: '/leverTransaction', key: 'funds' },
  { to: '/allTransaction', key: 'allTrades' },
] as const;

/** The frame of the leverage record pages: the navigation between them, a back action, the title. */
export function LeverFrame({
  title,
  testId,
  guarded = true,
  children,
}: {
  title: string;
  testId: string;
  guarded?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="fx-spot fx-lever-page" data-testid={testId}>
      <nav className="fx-lever-nav" aria-label={t('lever.nav.label')}>
        {LINKS.map((link) => (
          <NavLink
            key={link.to}
            to={link.to}
            end
            className={({ isActive }) => (isActive ? 'fx-lever-nav-link is-active' : 'fx-lever-nav-link')}
          >
            {t(`lever.nav.${link.key}`)}
          </NavLink>
        ))}
      </nav>
      <div className="fx-lever-page-head">
        <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(-1)} data-testid="lever-back">
          {t('lever.nav.back')}
        </Button>
        <h1>{title}</h1>
      </div>
      {guarded ? <RequireLogin>{children}</RequireLogin> : children}
    </div>
  );
}
