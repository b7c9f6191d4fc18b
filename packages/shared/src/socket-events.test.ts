import { describe, expect, it } from 'vitest';
import { isPublicChannel, klineChannel, marketChannel } from './socket-events.ts';

describe('public channels', () => {
  it.each([
    'daymarket',
    'market:BTC/USDT',
    'kline:ETH/USDT:1min',
    marketChannel('DOGE/USDT'),
    klineChannel('BTC/USDT', '1day'),
  ])('accepts %s', (channel) => expect(isPublicChannel(channel)).toBe(true));

  it.each([
    'user:1',
    'user',
    '',
    'market:',
    'market:btc/usdt',
    'market:BTC/USDT/X',
    'kline:BTC/USDT',
    'daymarket:x',
    42,
    null,
  ])('refuses %j', (channel) => expect(isPublicChannel(channel)).toBe(false));
});
