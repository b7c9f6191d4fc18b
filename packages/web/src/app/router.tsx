import { Navigate, redirect, type RouteObject } from 'react-router';
import { AppLayout, type RouteHandle } from './layout/AppLayout.tsx';
import { ROUTES, loginRedirectTarget, type RouteEntry } from './routes.ts';
import NotAvailablePage from '../features/not-available/NotAvailablePage.tsx';
import NotFoundPage from '../features/not-found/NotFoundPage.tsx';
import RouteErrorPage from '../features/route-error/RouteErrorPage.tsx';
import { isLoggedIn } from '../data/session.ts';

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
  if (screen === null) {
    return { ...place, ...guard, handle, element: <NotAvailablePage titleKey={entry.titleKey} /> };
  }
  return {
    ...place,
    ...guard,
    handle,
    lazy: async () => ({ Component: (await screen()).default }),
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
      errorElement: <RouteErrorPage />,
      hydrateFallbackElement: <div className="fx-boot" />,
      lazy: async () => ({ Component: (await import('../admin/AdminApp.tsx')).default }),
    },
    {
      path: '/',
      element: <AppLayout />,
      errorElement: <RouteErrorPage />,
      hydrateFallbackElement: <div className="fx-boot" />,
      children: [
        {
          // A pathless route holds the screens so that a failing screen keeps the header and footer.
          errorElement: <RouteErrorPage />,
          children: [...ROUTES.map(toRouteObject), { path: '*', handle: notFoundHandle, element: <NotFoundPage /> }],
        },
      ],
    },
  ];
}
