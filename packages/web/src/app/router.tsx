import { Navigate, redirect, type RouteObject } from 'react-router';
import { AppLayout, type RouteHandle } from './layout/AppLayout.tsx';
import { ROUTES, loginRedirectTarget, type RouteEntry } from './routes.ts';
import { isLoggedIn } from '../data/session.ts';
import { loadScreenMessages } from '../i18n/index.ts';
import { lazy, Suspense, type ReactNode } from 'react';

// The two status screens load when shown: they use antd's Result, whose illustrations would otherwise be
// part of every page's first download.
const NotFoundPage = lazy(() => import('../features/not-found/NotFoundPage.tsx'));
const RouteErrorPage = lazy(() => import('../features/route-error/RouteErrorPage.tsx'));

function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<div className="fx-boot" />}>{children}</Suspense>;
}

const routeError = (
  <Loading>
    <RouteErrorPage />
  </Loading>
);

/** Stops a visitor without a token at a guarded route and sends them to the login prompt. */
function guardLoader({ request }: { request: Request }): Response | null {
  if (isLoggedIn()) return null;
  const url = new URL(request.url);
  return redirect(loginRedirectTarget(`${url.pathname}${url.search}`));
}

function toRouteObject(entry: RouteEntry): RouteObject {
  const handle: RouteHandle = { titleKey: entry.titleKey };
  const place = entry.path === '/' ? { index: true as const } : { path: entry.path };
  if (entry.redirectTo !== undefined) {
    const target = entry.redirectTo;
    return { ...place, handle, element: <Navigate to={target} replace /> };
  }
  const guard = entry.guarded ? { loader: guardLoader } : {};
  const screen = entry.screen;
  return {
    ...place,
    ...guard,
    handle,
    lazy: async () => {
      const [module] = await Promise.all([
        screen(),
        // The screens part of the messages comes with every screen but those that need only the core.
        entry.coreMessagesOnly === true ? undefined : loadScreenMessages(),
      ]);
      return { Component: module.default };
    },
  };
}

/** The route objects of the whole app, built from the table in routes.ts. */
export function buildRouteObjects(): RouteObject[] {
  const notFoundHandle: RouteHandle = { titleKey: 'notFound' };
  return [
    {
      // The administrators' console: its own lazily loaded route tree and layout, without the site's header,
      // footer or user session.
      path: '/admin/*',
      errorElement: routeError,
      hydrateFallbackElement: <div className="fx-boot" />,
      lazy: async () => ({ Component: (await import('../admin/AdminApp.tsx')).default }),
    },
    {
      path: '/',
      element: <AppLayout />,
      errorElement: routeError,
      hydrateFallbackElement: <div className="fx-boot" />,
      children: [
        {
          // A pathless route holds the screens so that a failing screen keeps the header and footer.
          errorElement: routeError,
          children: [
            ...ROUTES.map(toRouteObject),
            {
              path: '*',
              handle: notFoundHandle,
              element: (
                <Loading>
                  <NotFoundPage />
                </Loading>
              ),
            },
          ],
        },
      ],
    },
  ];
}
