import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { Providers } from './app/Providers.tsx';
import { buildRouteObjects } from './app/router.tsx';
import { normalizeHashLink } from './app/hash-link.ts';
import { applyPreferencesToDocument } from './app/preferences/preferences.ts';
import { initI18n, loadMessages, storedLanguage } from './i18n/index.ts';
import { LANGUAGE_INFO } from './i18n/languages.ts';
import { loadAntdLocale } from './i18n/vendor-locales.ts';
import './styles/global.css';

async function start(): Promise<void> {
  normalizeHashLink(window.location, window.history);
  applyPreferencesToDocument(document.documentElement);
  const language = storedLanguage();
  document.documentElement.lang = LANGUAGE_INFO[language].locale;
  const [messages, antdLocale] = await Promise.all([loadMessages(language), loadAntdLocale(language)]);
  await initI18n(language, messages);
  const router = createBrowserRouter(buildRouteObjects());
  const container = document.getElementById('root');
  if (container === null) throw new Error('The page has no #root element to render into.');
  createRoot(container).render(
    <StrictMode>
      <Providers language={language} antdLocale={antdLocale}>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
}

void start();
