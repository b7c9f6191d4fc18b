import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Providers } from '../app/Providers.tsx';
import { applyPreferencesToDocument } from '../app/preferences/preferences.ts';
import { initI18n, loadMessages, storedLanguage } from '../i18n/index.ts';
import { LANGUAGE_INFO } from '../i18n/languages.ts';
import { loadAntdLocale } from '../i18n/vendor-locales.ts';
import { PriceChart } from './PriceChart.tsx';
import { DEFAULT_CHART_PERIOD, isChartPeriod } from './periods.ts';
import '../styles/global.css';

// One chart and nothing else, for the web performance measurement in packages/web/bench and for
// screenshots of the chart alone. Only that measurement builds this page (bench/chart.html); it is not
// part of the app. `?symbol=ETH/USDT&period=5min` pick the market and the interval; language, night
// mode and colours come from local storage, as in the app.

async function start(): Promise<void> {
  applyPreferencesToDocument(document.documentElement);
  const params = new URLSearchParams(window.location.search);
  const symbol = params.get('symbol') ?? 'BTC/USDT';
  const requested = params.get('period');
  const period = isChartPeriod(requested) ? requested : DEFAULT_CHART_PERIOD;
  const language = storedLanguage();
  document.documentElement.lang = LANGUAGE_INFO[language].locale;
  const [messages, antdLocale] = await Promise.all([loadMessages(language), loadAntdLocale(language)]);
  await initI18n(language, messages);
  const container = document.getElementById('root');
  if (container === null) throw new Error('The page has no #root element to render into.');
  createRoot(container).render(
    <StrictMode>
      <Providers language={language} antdLocale={antdLocale}>
        <div style={{ padding: 16, background: 'var(--fx-page-bg)', minHeight: '100vh' }}>
          <PriceChart symbol={symbol} defaultPeriod={period} height={516} />
        </div>
      </Providers>
    </StrictMode>,
  );
}

void start();
