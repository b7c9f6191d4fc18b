import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, NavLink, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, ConfigProvider } from 'antd';
import {
  CheckOutlined,
  DownOutlined,
  FileTextOutlined,
  GlobalOutlined,
  LogoutOutlined,
  MenuOutlined,
  MoonOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  ShopOutlined,
  SunOutlined,
  UserOutlined,
  UnorderedListOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { Logo } from './Logo.tsx';
import { HeaderMenu, type HeaderMenuEntry, type HeaderMenuItem } from './HeaderMenu.tsx';

// The phone menu's drawer loads the first time it opens.
const MobileMenu = lazy(() => import('./MobileMenu.tsx'));
import { NAV_ITEMS } from './nav-items.ts';
import { maskAccount } from './mask-account.ts';
import { HEADER_THEME_CLASS, buildHeaderTheme } from '../theme.ts';
import {
  setNightMode,
  setFillSound,
  setPriceColours,
  setTimeZoneChoice,
  usePreferences,
  type PriceColours,
} from '../preferences/preferences.ts';
import {
  browserTimeZone,
  isTimeZoneChoice,
  offsetLabel,
  offsetMinutes,
  zoneNameOf,
  type TimeZoneChoice,
} from '../../format/time-zone.ts';
import { currentLanguage, switchLanguage } from '../../i18n/index.ts';
import { LANGUAGES, LANGUAGE_INFO, isLanguage } from '../../i18n/languages.ts';
import { useSession } from '../../data/session.ts';
import { openDialog } from './open-dialog.ts';
import { logoutAndReload } from '../../features/auth/session-actions.ts';
import { useMessage } from '../message.tsx';
import { syncSellerFromStorage, useIsSeller } from '../../data/seller.ts';

/**
 * Listens for the `seller` push while a user is logged in. The listener's module (and the socket it needs)
 * loads on demand, so a visitor's first page carries neither.
 */
function useSellerListener(): void {
  const token = useSession((state) => state.token);
  useEffect(() => {
    syncSellerFromStorage(token !== null);
    if (token === null) return undefined;
    let stop: (() => void) | null = null;
    let active = true;
    void import('../../data/seller-push.ts').then((module) => {
      if (active) stop = module.listenForSeller();
    });
    return () => {
      active = false;
      stop?.();
    };
  }, [token]);
}

export function Header() {
  const language = currentLanguage();
  const [menuOpen, setMenuOpen] = useState(false);
  // Once opened, the drawer stays mounted so that it can play its closing animation.
  const [menuShown, setMenuShown] = useState(false);
  return (
    <>
      <ConfigProvider theme={buildHeaderTheme(language)} button={{ autoInsertSpace: false }}>
        <header className={`fx-header ${HEADER_THEME_CLASS}`} data-testid="header">
          <div className="fx-header-inner">
            <Link to="/" className="fx-header-logo" aria-label="Fairex">
              <Logo />
            </Link>
            <MainNav />
            <div className="fx-header-actions">
              <LanguageMenu />
              <PreferencesMenu />
              <NightToggle />
              <AccountArea />
              <MobileMenuButton
                onOpen={() => {
                  setMenuShown(true);
                  setMenuOpen(true);
                }}
              />
            </div>
          </div>
        </header>
      </ConfigProvider>
      {/* The drawer takes the page's day or night theme, not the header's permanent dark one. */}
      {menuShown && (
        <Suspense fallback={null}>
          <MobileMenu open={menuOpen} onClose={() => setMenuOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

function MainNav() {
  const { t } = useTranslation();
  return (
    <nav className="fx-nav" aria-label={t('nav.main')}>
      {NAV_ITEMS.map((item) => (
        <NavLink
          key={item.to}
          to={item.to}
          end={item.to === '/'}
          className={({ isActive }) => (isActive ? 'fx-nav-link is-active' : 'fx-nav-link')}
          data-testid={`nav-${item.name}`}
        >
          {t(item.labelKey)}
        </NavLink>
      ))}
    </nav>
  );
}

function LanguageMenu() {
  const { t } = useTranslation();
  const active = currentLanguage();
  const entries: HeaderMenuEntry[] = LANGUAGES.map((language) => ({
    key: language,
    selected: language === active,
    label: (
      <span
        className="fx-menu-option"
        data-testid={`language-option-${language}`}
        lang={LANGUAGE_INFO[language].locale}
      >
        <span>{LANGUAGE_INFO[language].nativeName}</span>
        {language === active && <CheckOutlined />}
      </span>
    ),
  }));
  const onSelect = (key: string) => {
    if (isLanguage(key)) switchLanguage(key);
  };
  return (
    <HeaderMenu entries={entries} onSelect={onSelect}>
      <Button
        type="text"
        className="fx-header-button"
        aria-label={t('header.language')}
        data-testid="language-trigger"
      >
        <GlobalOutlined />
        <span className="fx-hide-compact">{LANGUAGE_INFO[active].nativeName}</span>
      </Button>
    </HeaderMenu>
  );
}

function PreferencesMenu() {
  const { t } = useTranslation();
  const priceColours = usePreferences((state) => state.priceColours);
  const option = (value: PriceColours, label: string, up: string, down: string): HeaderMenuItem => ({
    key: value,
    selected: priceColours === value,
    label: (
      <span className="fx-menu-option" data-testid={`price-colours-${value}`}>
        <span>
          <span style={{ color: up }}>▲</span> <span style={{ color: down }}>▼</span> {label}
        </span>
        {priceColours === value && <CheckOutlined />}
      </span>
    ),
  });
  const timeZone = usePreferences((state) => state.timeZone);
  const fillSound = usePreferences((state) => state.fillSound);
  const zoneOption = (value: TimeZoneChoice): HeaderMenuItem => {
    const offset = offsetLabel(offsetMinutes(zoneNameOf(value), Date.now()));
    const label =
      value === 'shanghai'
        ? t('header.zoneShanghai', { offset })
        : value === 'browser'
          ? t('header.zoneBrowser', { zone: browserTimeZone(), offset })
          : t('header.zoneUtc');
    return {
      key: value,
      selected: timeZone === value,
      label: (
        <span className="fx-menu-option" data-testid={`time-zone-${value}`}>
          <span>{label}</span>
          {timeZone === value && <CheckOutlined />}
        </span>
      ),
    };
  };
  const entries: HeaderMenuEntry[] = [
    {
      group: t('header.priceColours'),
      items: [
        option('green-up', t('header.greenUp'), 'var(--fx-green)', 'var(--fx-red)'),
        option('red-up', t('header.redUp'), 'var(--fx-red)', 'var(--fx-green)'),
      ],
    },
    {
      group: t('header.timeZone'),
      items: [zoneOption('shanghai'), zoneOption('browser'), zoneOption('utc')],
    },
    {
      group: t('header.notifications'),
      items: [
        {
          key: 'fill-sound',
          selected: fillSound,
          label: (
            <span className="fx-menu-option" data-testid="fill-sound">
              <span>{t('header.fillSound')}</span>
              {fillSound && <CheckOutlined />}
            </span>
          ),
        },
      ],
    },
  ];
  const onSelect = (key: string) => {
    if (key === 'green-up' || key === 'red-up') setPriceColours(key);
    else if (isTimeZoneChoice(key) && key !== timeZone) setTimeZoneChoice(key);
    else if (key === 'fill-sound') setFillSound(!fillSound);
  };
  return (
    <HeaderMenu entries={entries} onSelect={onSelect}>
      <Button
        type="text"
        className="fx-header-button"
        icon={<SettingOutlined />}
        aria-label={t('header.preferences')}
        data-testid="preferences-trigger"
      />
    </HeaderMenu>
  );
}

function NightToggle() {
  const { t } = useTranslation();
  const nightMode = usePreferences((state) => state.nightMode);
  const label = nightMode ? t('header.switchToDay') : t('header.switchToNight');
  return (
    // A tooltip drawn by CSS (global.css, .fx-tip): antd's Tooltip would bring its popup code for one label.
    <span className="fx-tip" data-tip={label}>
      <Button
        type="text"
        className="fx-header-button"
        icon={nightMode ? <SunOutlined /> : <MoonOutlined />}
        aria-label={label}
        aria-pressed={nightMode}
        data-testid="night-toggle"
        onClick={() => setNightMode(!nightMode)}
      />
    </span>
  );
}

function AccountArea() {
  const { t } = useTranslation();
  const token = useSession((state) => state.token);
  const accountNum = useSession((state) => state.accountNum);
  if (token !== null && accountNum !== null) return <AccountMenu accountNum={accountNum} />;
  return (
    <div className="fx-auth-links fx-hide-mobile">
      <Link
        to="/components/login"
        className="fx-header-link"
        data-testid="login-link"
        onClick={(event) => openDialog(event, 'login')}
      >
        {t('header.login')}
      </Link>
      <Link
        to="/components/register"
        data-testid="register-link"
        onClick={(event) => openDialog(event, 'register')}
      >
        <Button type="primary">{t('header.register')}</Button>
      </Link>
    </div>
  );
}

function AccountMenu({ accountNum }: { accountNum: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const message = useMessage();
  const isSeller = useIsSeller();
  useSellerListener();
  const entries: HeaderMenuEntry[] = [
    { key: '/new_account', label: t('account.assets'), icon: <WalletOutlined /> },
    { key: '/orders', label: t('account.orders'), icon: <UnorderedListOutlined /> },
    // Spec 01: the merchant's shop is offered only when is_seller is 1.
    ...(isSeller ? [{ key: '/myLegalShops', label: t('routes.merchantShops'), icon: <ShopOutlined /> }] : []),
    { key: '/accountSet', label: t('account.settings'), icon: <SafetyCertificateOutlined /> },
    { key: '/transferLog', label: t('account.tradeLog'), icon: <FileTextOutlined /> },
    { divider: true },
    { key: 'logout', label: t('account.logout'), icon: <LogoutOutlined />, danger: true },
  ];
  const onSelect = (key: string) => {
    if (key !== 'logout') {
      void navigate(key);
      return;
    }
    // Spec 01 section 4: the token is revoked and local storage cleared, a message, a reload after 1 s.
    logoutAndReload();
    void message.success(t('account.logoutSuccess'));
  };
  return (
    <HeaderMenu entries={entries} onSelect={onSelect} testId="account-menu">
      <Button
        type="text"
        className="fx-header-button"
        aria-label={t('account.menu')}
        data-testid="account-trigger"
      >
        <UserOutlined />
        <span className="fx-hide-narrow" data-testid="account-number">
          {maskAccount(accountNum)}
        </span>
        <DownOutlined className="fx-caret" />
      </Button>
    </HeaderMenu>
  );
}

function MobileMenuButton({ onOpen }: { onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <Button
      type="text"
      className="fx-header-button fx-show-mobile"
      icon={<MenuOutlined />}
      aria-label={t('nav.openMenu')}
      data-testid="mobile-menu-trigger"
      onClick={onOpen}
    />
  );
}
