import type { PriceSample } from '../../data/price-record.ts';
import { GENESIS_HASH } from './canonical.ts';

// Test support: two linked samples of the price record with their true hashes. Imported by tests only.

// The vector below was computed outside the app (sha256sum over the same text), so the test states the
// format and the hash rule, not this module's own output.
export const FIRST: PriceSample = {
  symbol: 'BTC/USDT',
  seq: 1,
  time: 1_700_000_000_000,
  source_time: 1_699_999_999_500,
  index_price: '67250.12',
  mark_price: '67251.00',
  sources: [
    { name: 'binance', price: '67250.10', time: 1_699_999_999_500 },
    { name: 'okx', price: '67250.14', time: 1_699_999_999_400 },
  ],
  stale: false,
  prev_hash: GENESIS_HASH,
  hash: 'ece7537875c471cebb12ba6fe1f311e7ebd0b6e5f3ff1ad7b628dce8d64e6e4e',
};
export const SECOND: PriceSample = {
  symbol: 'BTC/USDT',
  seq: 2,
  time: 1_700_000_001_000,
  source_time: null,
  index_price: '67250.12',
  mark_price: '67251.00',
  sources: [],
  stale: true,
  prev_hash: FIRST.hash,
  hash: '78f95e1a45f71b975cf0f30c59c054af05ca72e6b7aba1efec2099dc81d9c84b',
};
export const HEAD = { symbol: 'BTC/USDT', seq: 2, time: SECOND.time, hash: SECOND.hash };
