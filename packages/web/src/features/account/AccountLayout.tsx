import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ApiOutlined, FileTextOutlined, IdcardOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import './account.css';

const NAV = [
  { to: '/accountSet', key: 'navSecurity', icon: <SafetyCertificateOutlined /> },
  { to: '/authentication', key: 'navRealName', icon: <IdcardOutlined /> },
  { to: '/transferLog', key: 'navTradeLog', icon: <FileTextOutlined /> },
  { to: '/apiKeys', key: 'navApiKeys', icon: <ApiOutlined /> },
] as const;

/** Spec 01 section 2: the account centre, a left navigation beside the page. */
export function AccountLayout({
  title,
  children,
  testId,
}: {
  title: string;
  children: ReactNode;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="fx-account" data-testid={testId}>
      <nav className="fx-account-nav" aria-label={t('account.navTitle')}>
        <div className="fx-account-nav-title">{t('account.navTitle')}</div>
        {NAV.map((item) => (
          <NavLink
            key={item.to}
            to={item.to}
            className={({ isActive }) => (isActive ? 'fx-account-nav-link is-active' : 'fx-account-nav-link')}
            data-testid={`account-nav-${item.key}`}
          >
            {item.icon}
            <span>{t(`account.${item.key}`)}</span>
          </NavLink>
        ))}
      </nav>
      <section className="fx-account-main">
        <h1 className="fx-account-title">{title}</h1>
        {children}
      </section>
    </div>
  );
}
