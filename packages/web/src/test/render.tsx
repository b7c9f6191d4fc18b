import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import enUS from 'antd/es/locale/en_US.js';
import { Providers } from '../app/Providers.tsx';
import { buildRouteObjects } from '../app/router.tsx';

/** Renders the whole app (providers, layout, routes) at an address, in English. */
export function renderApp(initialEntry: string) {
  const router = createMemoryRouter(buildRouteObjects(), { initialEntries: [initialEntry] });
  const view = render(
    <Providers language="en" antdLocale={enUS}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { router, ...view };
}
