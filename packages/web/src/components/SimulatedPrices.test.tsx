import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { fakeApi, renderScreens } from '../features/news/test-support.tsx';
import { SimulatedPricesBadge } from './SimulatedPrices.tsx';
import PriceRecordPage from '../features/price-record/PriceRecordPage.tsx';

// On a simulated price source the layout's strip, and the price record page's badge, say "Simulated prices
// (demo)"; on a live source nothing is shown.

const SIMULATED = { kind: 'simulated', sources: ['simulated'], demo: true, orders_open: true };
const LIVE = { kind: 'live', sources: ['binance'], demo: false, orders_open: true };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('simulated prices label', () => {
  it('shows the strip with its note on a simulated source', async () => {
    fakeApi({ '/price/source': () => SIMULATED });
    renderScreens([{ path: '/', element: <SimulatedPricesBadge variant="strip" /> }], '/');
    const strip = await screen.findByTestId('simulated-prices');
    expect(strip.textContent).toContain('Simulated prices (demo)');
    expect(strip.textContent).toMatch(/simulator/);
  });

  it('shows nothing on a live source', async () => {
    const { calls } = fakeApi({ '/price/source': () => LIVE });
    renderScreens([{ path: '/', element: <SimulatedPricesBadge variant="strip" /> }], '/');
    await waitFor(() => expect(calls.some((call) => call.path === '/price/source')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByTestId('simulated-prices')).toBeNull();
  });

  it('labels the price record page', async () => {
    fakeApi({
      '/price/source': () => SIMULATED,
      '/currency/quotation_new': () => [],
      '/price/heads': () => ({ heads: [] }),
    });
    renderScreens([{ path: '/priceRecord', element: <PriceRecordPage /> }], '/priceRecord');
    expect((await screen.findByTestId('simulated-prices-badge')).textContent).toBe('Simulated prices (demo)');
  });
});
