import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import enUS from 'antd/es/locale/en_US.js';
import { Providers } from '../../app/Providers.tsx';
import { OrderBook } from './OrderBook.tsx';
import { testMarket } from './test-market.ts';

const market = testMarket;

function renderBook() {
  return render(
    <Providers language="en" antdLocale={enUS}>
      <OrderBook
        market={market}
        bids={[
          { price: '30000.05', number: '0.1000' },
          { price: '29999.99', number: '0.0500' },
        ]}
        asks={[
          { price: '30000.11', number: '0.3000' },
          { price: '30000.19', number: '0.0100' },
        ]}
        lastPrice="30000.05"
        direction="up"
        onPickPrice={() => undefined}
      />
    </Providers>,
  );
}

const rows = (testId: string) => screen.getAllByTestId(testId).map((row) => row.textContent);

describe('order book grouping', () => {
  it('offers the tick and its powers of ten in a labelled select and regroups the rows', () => {
    renderBook();
    const grouping = screen.getByRole('combobox', { name: 'Price grouping' }) as HTMLSelectElement;
    expect(
      within(grouping)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['0.01', '0.1', '1', '10']);
    expect(grouping.value).toBe('1');
    // The table writes prices as the canvas draws them: grouped, at the grouping's places.
    expect(rows('book-bid')).toEqual(['30,000.050.1000', '29,999.990.0500']);

    fireEvent.change(grouping, { target: { value: '10' } });
    expect(grouping.value).toBe('10');
    expect(rows('book-bid')).toEqual(['30,000.00.1000', '29,999.90.0500']);
    // Asks round up to their group, so both levels merge into one.
    expect(rows('book-ask')).toEqual(['30,000.20.3100']);
  });
});
