// The BTC/USDT market as the spot screen's tests see it (the demo market's scales, tick, lot and fees).
import type { SpotMarketInfo } from '../../data/spot.ts';

export const testMarket: SpotMarketInfo = {
  id: 1,
  symbol: 'BTC/USDT',
  legal_id: 3,
  currency_id: 1,
  legal_name: 'USDT',
  currency_name: 'BTC',
  price_scale: 2,
  number_scale: 4,
  legal_scale: 6,
  currency_scale: 8,
  price_tick: '0.01',
  number_step: '0.0001',
  min_number: '0.0001',
  min_total: '5',
  maker_fee: '0.1',
  taker_fee: '0.1',
};
