import { Link, NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Drawer } from 'antd';
import { Logo } from './Logo.tsx';
import { NAV_ITEMS } from './nav-items.ts';
import { openDialog } from './open-dialog.ts';
import { usePreferences } from '../preferences/preferences.ts';
import { useSession } from '../../data/session.ts';

/** The phone menu: the main navigation and, for a visitor, the login and sign-up buttons. */
export default function MobileMenu({ open, onClose }: { open: boolean; onClose: () => void }) {
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
            {t(item.labelKey)}
          </NavLink>
        ))}
      </nav>
      {token === null && (
        <div className="fx-drawer-auth">
          <Link
            to="/components/login"
            onClick={(event) => {
              onClose();
              openDialog(event, 'login');
            }}
          >
            <Button block>{t('header.login')}</Button>
          </Link>
          <Link
            to="/components/register"
            onClick={(event) => {
              onClose();
              openDialog(event, 'register');
            }}
          >
            <Button type="primary" block>
              {t('header.register')}
            </Button>
          </Link>
        </div>
      )}
    </Drawer>
  );
}
