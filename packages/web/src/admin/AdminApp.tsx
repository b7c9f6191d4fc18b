import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Result, Spin } from 'antd';
import { useAdminMessages, useAdminT } from './i18n.ts';
import { adminApi } from '../data/admin-api.ts';
import { AdminLayout } from './AdminLayout.tsx';
import type { BackofficeSessionReply as SessionAnswer } from '@fairex/shared/api/backoffice.ts';
import { adminSession, useAdminSession } from './session.ts';
import LoginPage from './screens/LoginPage.tsx';
import SetupPage from './screens/SetupPage.tsx';
import DashboardPage from './screens/DashboardPage.tsx';
import UsersPage from './screens/UsersPage.tsx';
import UserDetailPage from './screens/UserDetailPage.tsx';
import RealNamePage from './screens/RealNamePage.tsx';
import FundingPage from './screens/FundingPage.tsx';
import MarketsPage from './screens/MarketsPage.tsx';
import ContentPage from './screens/ContentPage.tsx';
import OutboxPage from './screens/OutboxPage.tsx';
import AuditPage from './screens/AuditPage.tsx';
import SettingsPage from './screens/SettingsPage.tsx';
import AdminsPage from './screens/AdminsPage.tsx';
import MicroPage from './screens/MicroPage.tsx';
import LeverAdminPage from './screens/LeverPage.tsx';
import ProductsPage from './screens/ProductsPage.tsx';
import P2pPage from './screens/P2pPage.tsx';
import './admin.css';

// The administrators' console under /admin: loaded as its own chunk the first time someone opens /admin,
// with its own layout (no site header or footer) and its own session. The news editor, the one heavy
// screen, loads separately again.
const NewsEditorPage = lazy(() => import('./screens/NewsEditorPage.tsx'));

export type { BackofficeSessionReply as SessionAnswer } from '@fairex/shared/api/backoffice.ts';

/** Screens need a session that passed the second factor; anything less goes to the sign-in page. */
function RequireAdmin({ children }: { children: ReactNode }) {
  const token = useAdminSession((state) => state.token);
  const secondFactor = useAdminSession((state) => state.secondFactor);
  const location = useLocation();
  const session = useQuery({
    queryKey: ['admin', 'session', token],
    queryFn: () => adminApi.get<SessionAnswer>('/backoffice/session'),
    enabled: token !== null,
    staleTime: 60_000,
  });
  useEffect(() => {
    if (session.data) {
      adminSession.setState({
        admin: session.data.admin,
        permissions: session.data.permissions,
        secondFactor: session.data.second_factor,
      });
    }
  }, [session.data]);
  const from = `${location.pathname}${location.search}`;
  if (token === null) return <Navigate to="/admin/login" replace state={{ from }} />;
  if (secondFactor === 'required' || secondFactor === 'enrol') {
    return <Navigate to="/admin/login" replace state={{ from }} />;
  }
  if (session.isPending || secondFactor === null) {
    return (
      <div className="fx-admin-boot">
        <Spin size="large" />
      </div>
    );
  }
  return <>{children}</>;
}

function NotFound() {
  const t = useAdminT();
  return <Result status="404" title="404" subTitle={t('common.notFound')} />;
}

/** The console waits for its texts (one small file per language) before its first screen. */
export default function AdminApp() {
  return (
    <Suspense
      fallback={
        <div className="fx-admin-boot">
          <Spin size="large" />
        </div>
      }
    >
      <AdminRoutes />
    </Suspense>
  );
}

function AdminRoutes() {
  useAdminMessages();
  const t = useAdminT();
  useEffect(() => {
    const previous = document.title;
    document.title = t('documentTitle');
    return () => {
      document.title = previous;
    };
  }, [t]);
  return (
    <Routes>
      <Route path="login" element={<LoginPage />} />
      <Route path="setup" element={<SetupPage />} />
      <Route
        element={
          <RequireAdmin>
            <AdminLayout />
          </RequireAdmin>
        }
      >
        <Route index element={<Navigate to="/admin/dashboard" replace />} />
        <Route path="dashboard" element={<DashboardPage />} />
        <Route path="users" element={<UsersPage />} />
        <Route path="users/:id" element={<UserDetailPage />} />
        <Route path="real-name" element={<RealNamePage />} />
        <Route path="funding" element={<FundingPage />} />
        <Route path="markets" element={<MarketsPage />} />
        <Route path="content" element={<ContentPage />} />
        <Route
          path="content/items/:id"
          element={
            <Suspense fallback={<Spin />}>
              <NewsEditorPage />
            </Suspense>
          }
        />
        <Route path="outbox" element={<OutboxPage />} />
        <Route path="audit" element={<AuditPage />} />
        <Route path="settings" element={<SettingsPage />} />
        <Route path="micro" element={<MicroPage />} />
        <Route path="lever" element={<LeverAdminPage />} />
        <Route path="products" element={<ProductsPage />} />
        <Route path="p2p" element={<P2pPage />} />
        <Route path="admins" element={<AdminsPage />} />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
