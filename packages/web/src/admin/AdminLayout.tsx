import {
  AuditOutlined,
  BankOutlined,
  DashboardOutlined,
  GlobalOutlined,
  IdcardOutlined,
  LogoutOutlined,
  MailOutlined,
  MenuOutlined,
  MoonOutlined,
  ReadOutlined,
  SettingOutlined,
  FieldTimeOutlined,
  RiseOutlined,
  FundOutlined,
  SunOutlined,
  SwapOutlined,
  TransactionOutlined,
  TeamOutlined,
  UserOutlined,
  SafetyCertificateOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Avatar, Button, Drawer, Dropdown, Layout, Menu, Space, Tag, Tooltip, type MenuProps } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { useAdminT, type AdminKey } from './i18n.ts';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { Logo } from '../app/layout/Logo.tsx';
import { setNightMode, usePreferences } from '../app/preferences/preferences.ts';
import { currentLanguage, switchLanguage } from '../i18n/index.ts';
import { LANGUAGE_INFO, LANGUAGES, isLanguage } from '../i18n/languages.ts';
import { adminApi } from '../data/admin-api.ts';
import { useMediaQuery } from '../app/use-media-query.ts';
import { can, clearAdminSession, useAdminSession, type AdminPermission } from './session.ts';

interface NavEntry {
  key: string;
  icon: ReactNode;
  permission: AdminPermission;
  /** The label when not `nav.<key>` (areas added later keep their texts in their own section). */
  labelKey?: AdminKey;
}

const NAV: readonly NavEntry[] = [
  { key: 'dashboard', icon: <DashboardOutlined />, permission: 'dashboard' },
  { key: 'users', icon: <TeamOutlined />, permission: 'users.read' },
  { key: 'real-name', icon: <IdcardOutlined />, permission: 'real_name' },
  { key: 'funding', icon: <BankOutlined />, permission: 'funding.read' },
  { key: 'markets', icon: <SwapOutlined />, permission: 'catalog.read' },
  { key: 'content', icon: <ReadOutlined />, permission: 'content' },
  { key: 'outbox', icon: <MailOutlined />, permission: 'outbox' },
  { key: 'audit', icon: <AuditOutlined />, permission: 'audit' },
  { key: 'settings', icon: <SettingOutlined />, permission: 'catalog.read' },
  { key: 'micro', icon: <FieldTimeOutlined />, permission: 'funding.read' },
  { key: 'lever', icon: <RiseOutlined />, permission: 'funding.read' },
  { key: 'products', icon: <FundOutlined />, permission: 'funding.read' },
  { key: 'p2p', icon: <TransactionOutlined />, permission: 'funding.read', labelKey: 'p2p.nav' },
  { key: 'admins', icon: <SafetyCertificateOutlined />, permission: 'admins' },
];

/** The label of a section of the console: its own key, or `nav.<section>`. */
function labelKeyOf(section: string): AdminKey {
  return NAV.find((entry) => entry.key === section)?.labelKey ?? (`nav.${section}` as AdminKey);
}

/** Below this width the navigation leaves the side for a drawer the header's menu button opens. */
export const ADMIN_PHONE_QUERY = '(max-width: 767px)';

/**
 * The console's frame: the navigation on the left, who is signed in, language, day or night, sign-out. On a
 * phone the navigation is a drawer behind a button at the header's start, so the page has the whole width.
 */
export function AdminLayout() {
  const t = useAdminT();
  const location = useLocation();
  const phone = useMediaQuery(ADMIN_PHONE_QUERY);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const permissions = useAdminSession((state) => state.permissions);
  const nightMode = usePreferences((state) => state.nightMode);
  const section = location.pathname.split('/')[2] ?? 'dashboard';
  const items = useMemo<MenuProps['items']>(
    () =>
      NAV.filter((entry) => can(permissions, entry.permission)).map((entry) => ({
        key: entry.key,
        icon: entry.icon,
        label: (
          <Link to={`/admin/${entry.key}`} data-testid={`admin-nav-${entry.key}`}>
            {t(labelKeyOf(entry.key))}
          </Link>
        ),
      })),
    [permissions, t],
  );
  const brand = (
    <Link to="/admin/dashboard" className="fx-admin-brand">
      <Logo height={24} />
      <span className="fx-admin-brand-tag">{t('brandTag')}</span>
    </Link>
  );
  const menu = (
    <Menu
      theme="dark"
      mode="inline"
      selectedKeys={[section]}
      items={items}
      className="fx-admin-menu"
      onClick={() => setDrawerOpen(false)}
    />
  );
  return (
    <Layout className="fx-admin" data-testid="admin-layout">
      {phone ? (
        <Drawer
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          placement="left"
          width={248}
          closable={false}
          className="fx-admin-drawer"
          data-testid="admin-nav-drawer"
        >
          {brand}
          {menu}
        </Drawer>
      ) : (
        <Layout.Sider width={224} breakpoint="lg" collapsedWidth={64} className="fx-admin-sider" theme="dark">
          {brand}
          {menu}
        </Layout.Sider>
      )}
      <Layout className="fx-admin-body">
        <Layout.Header className="fx-admin-header">
          {phone ? (
            <Button
              type="text"
              icon={<MenuOutlined />}
              aria-label={t('common.menu')}
              aria-expanded={drawerOpen}
              onClick={() => setDrawerOpen(true)}
              data-testid="admin-nav-toggle"
            />
          ) : null}
          <span className="fx-admin-header-title">{t(labelKeyOf(section), { defaultValue: '' })}</span>
          <Space size={4}>
            <LanguagePicker />
            <Tooltip title={nightMode ? t('common.switchToDay') : t('common.switchToNight')}>
              <Button
                type="text"
                icon={nightMode ? <SunOutlined /> : <MoonOutlined />}
                aria-pressed={nightMode}
                data-testid="admin-night-toggle"
                onClick={() => setNightMode(!nightMode)}
              />
            </Tooltip>
            <AccountMenu />
          </Space>
        </Layout.Header>
        <Layout.Content className="fx-admin-content">
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

export function LanguagePicker() {
  const active = currentLanguage();
  const items: MenuProps['items'] = LANGUAGES.map((language) => ({
    key: language,
    label: (
      <span data-testid={`admin-language-${language}`} lang={LANGUAGE_INFO[language].locale}>
        {LANGUAGE_INFO[language].nativeName}
      </span>
    ),
  }));
  return (
    <Dropdown
      menu={{
        items,
        selectable: true,
        selectedKeys: [active],
        onClick: ({ key }) => isLanguage(key) && switchLanguage(key),
      }}
      trigger={['click']}
    >
      <Button type="text" icon={<GlobalOutlined />} data-testid="admin-language">
        {LANGUAGE_INFO[active].nativeName}
      </Button>
    </Dropdown>
  );
}

function AccountMenu() {
  const t = useAdminT();
  const admin = useAdminSession((state) => state.admin);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signOut = async () => {
    try {
      await adminApi.post('/backoffice/logout');
    } finally {
      clearAdminSession();
      queryClient.removeQueries({ queryKey: ['admin'] });
      void navigate('/admin/login', { replace: true });
    }
  };
  const items: MenuProps['items'] = [
    {
      key: 'logout',
      icon: <LogoutOutlined />,
      label: <span data-testid="admin-logout">{t('session.signOut')}</span>,
      onClick: () => void signOut(),
    },
  ];
  return (
    <Dropdown menu={{ items }} trigger={['click']}>
      <Button type="text" data-testid="admin-account">
        <Avatar size="small" icon={<UserOutlined />} />
        <span className="fx-admin-username">{admin?.username}</span>
        {admin !== null && <Tag className="fx-admin-role">{t(`roles.${admin.role}`)}</Tag>}
      </Button>
    </Dropdown>
  );
}
