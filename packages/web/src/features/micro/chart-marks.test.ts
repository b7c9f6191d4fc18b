import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import type { MicroOrder } from '../../data/micro.ts';
import { orderChartMarks } from './chart-marks.ts';

// A translator that shows the key and its values, so the test sees which text each mark asks for.
const t = ((key: string, values?: Record<string, unknown>) =>
  values === undefined ? key : `${key} ${JSON.stringify(values)}`) as unknown as TFunction;

function order(overrides: Partial<MicroOrder>): MicroOrder {
  return {
    id: 1,
    symbol_name: 'BTC/USDT',
    seconds: 30,
    number: '10.000000',
    currency_name: 'USDT',
    open_price: '',
    end_price: '',
    type: 1,
    status: 1,
    profit_ratio: '85',
    remain_milli_seconds: 30_000,
    fact_profits: '0',
    fee: '0.100000',
    match_id: 1,
    outcome: null,
    void_reason: null,
    created_time: 1_000_000,
    expiry_time: 1_030_000,
    fee_refund: '0.000000',
    ...overrides,
  };
}

describe('orderChartMarks', () => {
  it('marks a running up order: an up arrow at acceptance, a neutral circle at expiry, no line before it opens', () => {
    const { moments, levels } = orderChartMarks([order({})], t);
    expect(moments).toEqual([
      expect.objectContaining({ key: '1-open', timeMs: 1_000_000, shape: 'arrowUp', tone: 'up' }),
      expect.objectContaining({ key: '1-expiry', timeMs: 1_030_000, shape: 'circle', tone: 'neutral' }),
    ]);
    expect(moments[0]?.text).toContain('micro.chartMark.open');
    expect(moments[1]?.text).toContain('micro.chartMark.expiry');
    expect(levels).toEqual([]);
  });

  it('draws the open price of a running down order once it opened', () => {
    const { moments, levels } = orderChartMarks([order({ id: 2, type: 2, open_price: '67000.00' })], t);
    expect(moments[0]).toMatchObject({ shape: 'arrowDown', position: 'aboveBar', tone: 'down' });
    expect(levels).toEqual([
      expect.objectContaining({ key: '2-open-price', price: '67000.00', tone: 'down' }),
    ]);
  });

  it('names the outcome of a settled order at its expiry, in its colour, with no price line; one set per order', () => {
    const settled = order({ id: 3, status: 3, outcome: 'loss', open_price: '1.00', end_price: '0.99' });
    const { moments, levels } = orderChartMarks([settled, { ...settled, status: 1 }], t);
    expect(moments).toHaveLength(2);
    expect(moments[1]).toMatchObject({ key: '3-expiry', tone: 'down' });
    expect(moments[1]?.text).toContain('micro.chartMark.settled');
    expect(moments[1]?.text).toContain('micro.outcome.loss');
    expect(levels).toEqual([]);
  });
});
