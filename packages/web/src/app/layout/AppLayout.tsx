import { useEffect } from 'react';
import { Navigate, Outlet, useLocation, useMatches, useNavigation, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Header } from './Header.tsx';
import { Footer } from './Footer.tsx';
import { pathFromHashLink } from '../hash-link.ts';
import { safeRedirectPath, type RouteTitleKey } from '../routes.ts';
import { requestLogin } from '../../data/session.ts';
import { AuthDialogHost } from '../../features/auth/AuthDialogHost.tsx';
import { FillToasts } from '../../features/spot/FillToasts.tsx';
import { SimulatedPricesBadge } from '../../components/SimulatedPrices.tsx';
import { LoginWitness } from '../../features/transparency/LoginWitness.tsx';

export interface RouteHandle {
  titleKey: RouteTitleKey;
}

function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === 'object' && value !== null && 'titleKey' in value;
}

export function AppLayout() {
  const location = useLocation();
  const hashPath = pathFromHashLink(location.hash);
  // A template hash link followed inside the app (the first load is rewritten before the router starts).
  if (hashPath !== null) return <Navigate to={hashPath} replace />;
  return (
    <div className="fx-shell">
      <Header />
      {/* On a simulated price source every page says so (docs/price-record.md, "Simulated prices"). */}
      <SimulatedPricesBadge variant="strip" />
      <NavigationProgress />
      <main className="fx-main">
        <Outlet />
      </main>
      <Footer />
      <DocumentTitle />
      <LoginPrompt />
      <AuthDialogHost />
      <FillToasts />
      <LoginWitness />
    </div>
  );
}

function NavigationProgress() {
  const navigation = useNavigation();
  return (
    <div
      className={navigation.state === 'idle' ? 'fx-progress' : 'fx-progress is-active'}
      aria-hidden="true"
    />
  );
}

function DocumentTitle() {
  const { t } = useTranslation();
  const matches = useMatches();
  const handle = [...matches].reverse().find((match) => isRouteHandle(match.handle))?.handle;
  const titleKey = isRouteHandle(handle) ? handle.titleKey : 'home';
  const title =
    titleKey === 'home' ? t('app.name') : t('app.documentTitle', { page: t(`routes.${titleKey}`) });
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}

/**
 * A guarded route sends visitors to `/?login=1&redirect=...`; this turns that address into a login request,
 * which the login dialog (AuthDialogHost) answers.
 */
function LoginPrompt() {
  const [searchParams] = useSearchParams();
  const wantsLogin = searchParams.get('login') === '1';
  const redirect = safeRedirectPath(searchParams.get('redirect'));

  useEffect(() => {
    if (wantsLogin) requestLogin({ redirect, reason: 'guard' });
  }, [wantsLogin, redirect]);
  return null;
}
