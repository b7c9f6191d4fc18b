import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  ApiOutlined,
  CreditCardOutlined,
  FileTextOutlined,
  IdcardOutlined,
  SafetyCertificateOutlined,
} from '@ant-design/icons';
import './account.css';

const NAV = [
  { to: '/accountSet', key: 'navSecurity', icon: <SafetyCertificateOutlined /> },
  { to: '/authentication', key: 'navRealName', icon: <IdcardOutlined /> },
  { to: '/transferLog', key: 'navTradeLog', icon: <FileTextOutlined /> },
  { to: '/apiKeys', key: 'navApiKeys', icon: <ApiOutlined /> },
  // The P2P payment methods (docs/p2p.md); its label lives in the p2p section.
  { to: '/userSetting', key: 'p2pMethods', icon: <CreditCardOutlined /> },
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
  const nav = useRef<HTMLElement>(null);
  // On a phone the menu is a strip that scrolls sideways (account.css): the page's own item is brought
  // into it, so the strip shows where the user is.
  useLayoutEffect(() => {
    const strip = nav.current;
    const active = strip?.querySelector<HTMLElement>('.fx-account-nav-link.is-active');
    if (!strip || !active || strip.scrollWidth <= strip.clientWidth) return;
    strip.scrollLeft = active.offsetLeft - (strip.clientWidth - active.offsetWidth) / 2;
  }, [testId]);
  return (
    <div className="fx-account" data-testid={testId}>
      <nav ref={nav} className="fx-account-nav" aria-label={t('account.navTitle')}>
        <div className="fx-account-nav-title">{t('account.navTitle')}</div>
        {NAV.map((item) => (
          <NavLink
            key={item.to}
            to={item.to}
            className={({ isActive }) => (isActive ? 'fx-account-nav-link is-active' : 'fx-account-nav-link')}
            data-testid={`account-nav-${item.key}`}
          >
            {item.icon}
            <span>{item.key === 'p2pMethods' ? t('p2p.methods.title') : t(`account.${item.key}`)}</span>
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
