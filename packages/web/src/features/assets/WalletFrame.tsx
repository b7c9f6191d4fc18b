import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { RequireLogin } from '../auth/RequireLogin.tsx';
import './wallet.css';

const LINKS = [
  { to: '/new_account', key: 'navAssets' },
  { to: '/transferLegal', key: 'navTransfer' },
  { to: '/flash', key: 'navFlash' },
  { to: '/withdraw_address', key: 'navAddressBook' },
  { to: '/transferLog', key: 'navRecords' },
] as const;

/** The frame of every wallet screen: a title, the wallet navigation and the page. */
export function WalletFrame({
  title,
  testId,
  actions,
  children,
}: {
  title: string;
  testId: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="fx-wallet" data-testid={testId}>
      <nav className="fx-wallet-nav" aria-label={t('wallet.navLabel')}>
        {LINKS.map((link) => (
          <NavLink
            key={link.to}
            to={link.to}
            end
            className={({ isActive }) => (isActive ? 'fx-wallet-nav-link is-active' : 'fx-wallet-nav-link')}
            data-testid={`wallet-nav-${link.key}`}
          >
            {t(`wallet.${link.key}`)}
          </NavLink>
        ))}
      </nav>
      <div className="fx-wallet-head">
        <h1 className="fx-wallet-title">{title}</h1>
        {actions ? <div className="fx-wallet-actions">{actions}</div> : null}
      </div>
      <RequireLogin>{children}</RequireLogin>
    </div>
  );
}

/** A bordered panel of a wallet screen. */
export function WalletPanel({
  title,
  children,
  testId,
}: {
  title?: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <section className="fx-wallet-panel" data-testid={testId}>
      {title ? <h2 className="fx-wallet-panel-title">{title}</h2> : null}
      {children}
    </section>
  );
}
