import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { clearLoginRequest, useSession } from '../../data/session.ts';
import { openLoginDialog, useAuthDialog } from './auth-dialogs.ts';

const AuthDialogs = lazy(() => import('./AuthDialogs.tsx'));

/**
 * Mounted once in the layout. A login request in the session store (a guarded route, or a 999 answer
 * anywhere) opens the login dialog. The dialogs' code loads the first time one opens, so that pages
 * nobody logs in from do not carry it.
 */
export function AuthDialogHost() {
  const { t } = useTranslation();
  const loginRequest = useSession((state) => state.loginRequest);
  const open = useAuthDialog((state) => state.open);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    if (loginRequest === null) return;
    const notice = loginRequest.reason === 'expired' ? t('auth.sessionExpired') : t('auth.loginRequired');
    openLoginDialog({ redirect: loginRequest.redirect, notice, noticeType: 'info' });
    clearLoginRequest();
  }, [loginRequest, t]);
  useEffect(() => {
    if (open !== null) setLoaded(true);
  }, [open]);
  if (!loaded && open === null) return null;
  return (
    <Suspense fallback={null}>
      <AuthDialogs />
    </Suspense>
  );
}
