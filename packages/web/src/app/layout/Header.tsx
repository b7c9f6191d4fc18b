import { useState, type MouseEvent } from 'react';
import { Link, NavLink, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { App, Button, ConfigProvider, Drawer, Dropdown, Tooltip, type MenuProps } from 'antd';
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
  SunOutlined,
  UserOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { Logo } from './Logo.tsx';
import { NAV_ITEMS } from './nav-items.ts';
import { maskAccount } from './mask-account.ts';
import { buildHeaderTheme } from '../theme.ts';
import { setNightMode, setPriceColours, usePreferences, type PriceColours } from '../preferences/preferences.ts';
import { currentLanguage, switchLanguage } from '../../i18n/index.ts';
import { LANGUAGES, LANGUAGE_INFO, isLanguage } from '../../i18n/languages.ts';
import { useSession } from '../../data/session.ts';
import { openLoginDialog, openRegisterDialog } from '../../features/auth/auth-dialogs.ts';
import { logoutAndReload } from '../../features/auth/session-actions.ts';

/** The header's login and sign-up links open the dialogs; the addresses still work without script. */
function openDialog(event: MouseEvent, which: 'login' | 'register'): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  if (which === 'login') openLoginDialog();
  else openRegisterDialog();
}

export function Header() {
  const language = currentLanguage();
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <>
      <ConfigProvider theme={buildHeaderTheme(language)} button={{ autoInsertSpace: false }}>
        <header className="fx-header" data-testid="header">
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
              <MobileMenuButton onOpen={() => setMenuOpen(true)} />
            </div>
          </div>
        </header>
      </ConfigProvider>
      {/* The drawer takes the page's day or night theme, not the header's permanent dark one. */}
      <MobileMenu open={menuOpen} onClose={() => setMenuOpen(false)} />
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
          data-testid={`nav-${item.labelKey}`}
        >
          {t(`nav.${item.labelKey}`)}
        </NavLink>
      ))}
    </nav>
  );
}

function LanguageMenu() {
  const { t } = useTranslation();
  const active = currentLanguage();
  const items: MenuProps['items'] = LANGUAGES.map((language) => ({
    key: language,
    label: (
      <span className="fx-menu-option" data-testid={`language-option-${language}`} lang={LANGUAGE_INFO[language].locale}>
        <span>{LANGUAGE_INFO[language].nativeName}</span>
        {language === active && <CheckOutlined />}
      </span>
    ),
  }));
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (isLanguage(key)) switchLanguage(key);
  };
  return (
    <Dropdown menu={{ items, onClick, selectable: true, selectedKeys: [active] }} trigger={['click']} placement="bottomRight">
      <Button type="text" className="fx-header-button" aria-label={t('header.language')} data-testid="language-trigger">
        <GlobalOutlined />
        <span className="fx-hide-compact">{LANGUAGE_INFO[active].nativeName}</span>
      </Button>
    </Dropdown>
  );
}

function PreferencesMenu() {
  const { t } = useTranslation();
  const priceColours = usePreferences((state) => state.priceColours);
  const option = (value: PriceColours, label: string, up: string, down: string) => ({
    key: value,
    label: (
      <span className="fx-menu-option" data-testid={`price-colours-${value}`}>
        <span>
          <span style={{ color: up }}>▲</span> <span style={{ color: down }}>▼</span> {label}
        </span>
        {priceColours === value && <CheckOutlined />}
      </span>
    ),
  });
  const items: MenuProps['items'] = [
    {
      type: 'group',
      key: 'price-colours',
      label: t('header.priceColours'),
      children: [
        option('green-up', t('header.greenUp'), 'var(--fx-green)', 'var(--fx-red)'),
        option('red-up', t('header.redUp'), 'var(--fx-red)', 'var(--fx-green)'),
      ],
    },
  ];
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'green-up' || key === 'red-up') setPriceColours(key);
  };
  return (
    <Dropdown menu={{ items, onClick }} trigger={['click']} placement="bottomRight">
      <Button
        type="text"
        className="fx-header-button"
        icon={<SettingOutlined />}
        aria-label={t('header.preferences')}
        data-testid="preferences-trigger"
      />
    </Dropdown>
  );
}

function NightToggle() {
  const { t } = useTranslation();
  const nightMode = usePreferences((state) => state.nightMode);
  const label = nightMode ? t('header.switchToDay') : t('header.switchToNight');
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        className="fx-header-button"
        icon={nightMode ? <SunOutlined /> : <MoonOutlined />}
        aria-label={label}
        aria-pressed={nightMode}
        data-testid="night-toggle"
        onClick={() => setNightMode(!nightMode)}
      />
    </Tooltip>
  );
}

function AccountArea() {
  const { t } = useTranslation();
  const token = useSession((state) => state.token);
  const accountNum = useSession((state) => state.accountNum);
  if (token !== null && accountNum !== null) return <AccountMenu accountNum={accountNum} />;
  return (
    <div className="fx-auth-links fx-hide-mobile">
      <Link to="/components/login" className="fx-header-link" data-testid="login-link" onClick={(event) => openDialog(event, 'login')}>
        {t('header.login')}
      </Link>
      <Link to="/components/register" data-testid="register-link" onClick={(event) => openDialog(event, 'register')}>
        <Button type="primary">{t('header.register')}</Button>
      </Link>
    </div>
  );
}

function AccountMenu({ accountNum }: { accountNum: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const items: MenuProps['items'] = [
    { key: '/new_account', label: t('account.assets'), icon: <WalletOutlined /> },
    { key: '/accountSet', label: t('account.settings'), icon: <SafetyCertificateOutlined /> },
    { key: '/transferLog', label: t('account.tradeLog'), icon: <FileTextOutlined /> },
    { type: 'divider' },
    { key: 'logout', label: t('account.logout'), icon: <LogoutOutlined />, danger: true },
  ];
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key !== 'logout') {
      void navigate(key);
      return;
    }
    // Spec 01 section 4: the token is revoked and local storage cleared, a message, a reload after 1 s.
    logoutAndReload();
    void message.success(t('account.logoutSuccess'));
  };
  return (
    <Dropdown menu={{ items, onClick }} trigger={['click']} placement="bottomRight">
      <Button type="text" className="fx-header-button" aria-label={t('account.menu')} data-testid="account-trigger">
        <UserOutlined />
        <span className="fx-hide-narrow" data-testid="account-number">
          {maskAccount(accountNum)}
        </span>
        <DownOutlined className="fx-caret" />
      </Button>
    </Dropdown>
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

function MobileMenu({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const token = useSession((state) => state.token);
  const nightMode = usePreferences((state) => state.nightMode);
  return (
    <Drawer
      open={open}
      onClose={onClose}
      placement="right"
      size={300}
      title={<Logo height={24} wordColour={nightMode ? '#ffffff' : '#0f172a'} />}
    >
      <nav className="fx-drawer-nav" aria-label={t('nav.main')}>
        {NAV_ITEMS.map((item) => (
          <NavLink
            key={item.to}
            to={item.to}
            end={item.to === '/'}
            onClick={onClose}
            className={({ isActive }) => (isActive ? 'fx-drawer-link is-active' : 'fx-drawer-link')}
          >
            {t(`nav.${item.labelKey}`)}
          </NavLink>
        ))}
      </nav>
      {token === null && (
        <div className="fx-drawer-auth">
          <Link to="/components/login" onClick={(event) => { onClose(); openDialog(event, 'login'); }}>
            <Button block>{t('header.login')}</Button>
          </Link>
          <Link to="/components/register" onClick={(event) => { onClose(); openDialog(event, 'register'); }}>
            <Button type="primary" block>
              {t('header.register')}
            </Button>
          </Link>
        </div>
      )}
    </Drawer>
  );
}
