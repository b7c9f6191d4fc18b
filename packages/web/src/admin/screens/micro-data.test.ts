import { describe, expect, it } from 'vitest';
import type { MicroAdminConfig } from '@fairex/shared';
import { addableCurrencies, bpPercent, capMarkets, ordersQuery, presetsFromText } from './micro-data.ts';

const config: MicroAdminConfig = {
  seconds: [{ seconds: 30, profit_ratio_bp: 8_000 }],
  currencies: [
    {
      currency_id: 3,
      code: 'USDT',
      fee_bp: 100,
      min: '10.000000',
      max: '100000.000000',
      presets: ['10.000000'],
      max_open_orders: 20,
    },
  ],
  caps: [],
  max_sample_age_ms: 3_000,
  markets: [
    { id: 2, symbol: 'ETH/USDT', quote_currency_id: 3 },
    { id: 1, symbol: 'BTC/USDT', quote_currency_id: 3 },
    { id: 9, symbol: 'ETH/BTC', quote_currency_id: 1 },
  ],
  all_currencies: [
    { id: 1, code: 'BTC', scale: 8 },
    { id: 3, code: 'USDT', scale: 6 },
  ],
};

describe("the seconds contracts' back-office readers", () => {
  it('writes basis points as percent text by integer arithmetic', () => {
    expect(bpPercent(8_500)).toBe('85');
    expect(bpPercent(1_250)).toBe('12.5');
    expect(bpPercent(5)).toBe('0.05');
    expect(bpPercent(0)).toBe('0');
    expect(bpPercent(100_000)).toBe('1000');
    expect(bpPercent(-1)).toBe('');
    expect(bpPercent(1.5)).toBe('');
  });

  it('reads preset stakes typed on one line, keeping the decimal texts', () => {
    expect(presetsFromText('10, 50  100,500.25')).toEqual(['10', '50', '100', '500.25']);
    expect(presetsFromText('10，20、30;40')).toEqual(['10', '20', '30', '40']);
    expect(presetsFromText('  ')).toEqual([]);
  });

  it('builds the settled orders query, ending the range after its last day', () => {
    expect(ordersQuery({ page: 2 })).toEqual({
      page: 2,
      user_id: undefined,
      market_id: undefined,
      outcome: undefined,
      from: undefined,
      to: undefined,
    });
    const day = Date.UTC(2026, 10, 26);
    expect(
      ordersQuery({ page: 1, userId: 7, marketId: 1, outcome: 'void', fromDayMs: day, toDayMs: day }),
    ).toEqual({ page: 1, user_id: 7, market_id: 1, outcome: 'void', from: day, to: day + 86_400_000 });
  });

  it('offers the pairs quoted in a currency for caps, and the currencies not yet payable', () => {
    expect(capMarkets(config, 3)).toEqual([
      { id: 1, symbol: 'BTC/USDT' },
      { id: 2, symbol: 'ETH/USDT' },
    ]);
    expect(capMarkets(config, 1)).toEqual([{ id: 9, symbol: 'ETH/BTC' }]);
    expect(addableCurrencies(config)).toEqual([{ id: 1, code: 'BTC' }]);
  });
});
