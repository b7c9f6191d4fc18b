import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Result } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useSession } from '../../data/session.ts';
import { openLoginDialog } from './auth-dialogs.ts';

/**
 * Pages that act on an account but are not guarded by the router (spec 02 section 2.1 guards only two):
 * a visitor sees a prompt and the login dialog instead of a form that could only answer 999.
 */
export function RequireLogin({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const location = useLocation();
  const token = useSession((state) => state.token);
  const here = `${location.pathname}${location.search}`;
  useEffect(() => {
    if (token === null) openLoginDialog({ redirect: here });
  }, [token, here]);
  if (token !== null) return <>{children}</>;
  return (
    <Result
      icon={<LockOutlined />}
      title={t('auth.loginToContinue')}
      extra={
        <Button
          type="primary"
          onClick={() => openLoginDialog({ redirect: here })}
          data-testid="require-login"
        >
          {t('auth.submitLogin')}
        </Button>
      }
    />
  );
}
