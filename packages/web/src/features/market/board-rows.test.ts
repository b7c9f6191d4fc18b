import { describe, expect, it } from 'vitest';
import type { DaymarketPayload } from '@fairex/shared/socket-events.ts';
import type { BoardQuotation } from '../../data/market.ts';
import { createBoardRows, featuredRows, filterRows, gainRanking, turnoverRanking } from './board-rows.ts';

function quotation(currencyId: number, base: string, amount: string, change: string): BoardQuotation {
  return {
    legal_id: 3,
    currency_id: currencyId,
    legal_name: 'USDT',
    currency_name: base,
    is_display: 1,
    amount,
    change,
    now_price: '1',
  };
}

function ticker(currencyId: number, base: string, price: string): DaymarketPayload {
  return {
    type: 'daymarket',
    symbol: `${base}/USDT`,
    legal_id: 3,
    currency_id: currencyId,
    now_price: price,
    close: price,
    change: '1',
    high: price,
    low: price,
    volume: '1',
    amount: '1',
    mark_price: null,
    index_price: null,
    price,
    price_kind: 'trade',
  };
}

describe('board rows', () => {
  const quotations = [
    quotation(1, 'BTC', '50', '-1'),
    quotation(2, 'ETH', '70', '2'),
    quotation(9, 'SOL', '', ''),
  ];

  it('keeps the row object of a pair that did not move, so its card and row are not rendered again', () => {
    const rowsOf = createBoardRows();
    const btc = ticker(1, 'BTC', '100');
    const first = rowsOf(quotations, { 'BTC/USDT': btc });
    const second = rowsOf(quotations, { 'BTC/USDT': btc, 'ETH/USDT': ticker(2, 'ETH', '5') });
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    expect(second[1]?.now_price).toBe('5');
    const third = rowsOf(quotations, { 'BTC/USDT': ticker(1, 'BTC', '101'), 'ETH/USDT': second[1] as never });
    expect(third[0]?.now_price).toBe('101');
  });

  it('ranks by exact turnover and gain, pairs without a figure last', () => {
    const rows = createBoardRows()(quotations, {});
    expect(turnoverRanking(rows).map((row) => row.currency_name)).toEqual(['ETH', 'BTC', 'SOL']);
    expect(gainRanking(rows).map((row) => row.currency_name)).toEqual(['ETH', 'BTC', 'SOL']);
    expect(featuredRows(rows).map((row) => row.currency_name)).toEqual(['BTC', 'ETH']);
    expect(filterRows(rows, ' sol/usdt ').map((row) => row.symbol)).toEqual(['SOL/USDT']);
    expect(filterRows(rows, 'ethusdt').map((row) => row.symbol)).toEqual(['ETH/USDT']);
  });
});
