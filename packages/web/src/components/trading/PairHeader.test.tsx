import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import enUS from 'antd/es/locale/en_US.js';
import { Providers } from '../../app/Providers.tsx';
import type { MarkAndIndex } from '../../data/mark-price.ts';
import { PairHeader, PRICE_RECORD_PATH } from './PairHeader.tsx';
import { testMarket } from './test-market.ts';

function renderHeader(lastPrice: string | null, prices: MarkAndIndex) {
  return render(
    <Providers language="en" antdLocale={enUS}>
      <MemoryRouter>
        <PairHeader
          symbol="BTC/USDT"
          market={testMarket}
          lastPrice={lastPrice}
          direction="flat"
          ticker={undefined}
          prices={prices}
        />
      </MemoryRouter>
    </Providers>,
  );
}

describe('pair header: mark and index', () => {
  it('shows the mark and index prices beside the last price, each explained with a link to the record', () => {
    renderHeader('67012.34', { mark: '67010.50', index: '67008.25' });
    expect(screen.getByTestId('pair-last-price').textContent).toBe('67,012.34');
    expect(screen.getByTestId('pair-last-price').dataset.kind).toBe('last');
    const mark = screen.getByTestId('pair-mark');
    const index = screen.getByTestId('pair-index');
    expect(within(mark).getByRole('button').textContent).toBe('Mark');
    expect(mark.querySelector('.fx-spot-stat-value')?.textContent).toBe('67,010.50');
    expect(within(index).getByRole('button').textContent).toBe('Index');
    expect(index.querySelector('.fx-spot-stat-value')?.textContent).toBe('67,008.25');
    const indexNote = screen.getByRole('tooltip', { name: /median of the configured outside price sources/ });
    expect(within(index).getByRole('button').getAttribute('aria-describedby')).toBe(indexNote.id);
    const markNote = within(mark).getByRole('tooltip');
    expect(markNote.textContent).toMatch(/index price plus a damped, capped basis/);
    expect(within(markNote).getByRole('link').getAttribute('href')).toBe(PRICE_RECORD_PATH);
  });

  it('shows the mark price, said to be the mark, where the pair has not traded yet', () => {
    renderHeader(null, { mark: '67010.50', index: '67008.25' });
    const price = screen.getByTestId('pair-last-price');
    expect(price.dataset.kind).toBe('mark');
    expect(price.textContent).toBe('67,010.50M');
    expect(within(price).getByTestId('mark-tag').getAttribute('title')).toBe('Mark price (no trades yet)');
  });

  it('shows dashes, never a zero, while there is neither a trade nor a mark price', () => {
    renderHeader(null, { mark: null, index: null });
    expect(screen.getByTestId('pair-last-price').textContent).toBe('--');
    expect(screen.getByTestId('pair-mark').querySelector('.fx-spot-stat-value')?.textContent).toBe('--');
    expect(screen.getByTestId('pair-index').querySelector('.fx-spot-stat-value')?.textContent).toBe('--');
  });
});
