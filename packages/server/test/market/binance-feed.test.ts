// The Binance adapter against a local stand-in that speaks the exchange's stream protocol: it takes prices
// from mini-ticker frames, ignores malformed ones, reconnects with backoff after the stand-in drops the
// connection, forgets prices that grew old, and reads history from klines.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BinanceFeed, parseKlines } from '../../src/market/binance-feed.ts';
import type { StandInExchange } from './stand-in-exchange.ts';
import { MINI_TICKER_FRAMES, startStandInExchange } from './stand-in-exchange.ts';

let exchange: StandInExchange | undefined;
let feed: BinanceFeed | undefined;

afterEach(async () => {
  await feed?.close();
  await exchange?.close();
  feed = undefined;
  exchange = undefined;
});

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The frames of one connection, with every BTC price replaced by `price` (to tell connections apart). */
function framesWithBtcPrice(price: string): string[] {
  return MINI_TICKER_FRAMES.map((frame) =>
    frame.replace(/"s":"BTCUSDT","c":"6[0-9.]+"/, `"s":"BTCUSDT","c":"${price}"`),
  );
}

describe('BinanceFeed', () => {
  it('subscribes to the combined mini-ticker stream and takes the last price of each symbol', async () => {
    exchange = await startStandInExchange({ drop: false });
    feed = new BinanceFeed({ streamUrl: exchange.streamUrl, maxAgeMs: Number.MAX_SAFE_INTEGER });
    feed.start(['BTC/USDT', 'ETH/USDT']);
    await until(() => feed?.stats.messages === MINI_TICKER_FRAMES.length);
    expect(exchange.connections).toEqual(['/stream?streams=btcusdt@miniTicker/ethusdt@miniTicker']);
    // The malformed frame and the negative price were ignored; XRP was not asked for.
    expect(feed.latest('BTC/USDT', 0)).toEqual({ price: '67249.90000000', timeMs: 1767225603126 });
    expect(feed.latest('ETH/USDT', 0)).toEqual({ price: '3479.98000000', timeMs: 1767225602202 });
    expect(feed.latest('XRP/USDT', 0)).toBeUndefined();
  });

  it('reconnects after the stand-in drops the connection, and prices continue from the new connection', async () => {
    exchange = await startStandInExchange({
      framesFor: (connection) => framesWithBtcPrice(`${70000 + connection}.5`),
    });
    feed = new BinanceFeed({
      streamUrl: exchange.streamUrl,
      initialBackoffMs: 20,
      maxAgeMs: Number.MAX_SAFE_INTEGER,
    });
    feed.start(['BTC/USDT']);
    await until(() => (exchange?.connections.length ?? 0) >= 3);
    await until(() => feed?.latest('BTC/USDT', 0)?.price === '70002.5');
    expect(feed.stats.connects).toBeGreaterThanOrEqual(3);
    expect(new Set(exchange.connections)).toEqual(new Set(['/stream?streams=btcusdt@miniTicker']));
  });

  it('backs off exponentially while the exchange refuses every connection', async () => {
    // A server that accepts TCP and hangs up at once: every attempt fails during the handshake.
    const attempts: number[] = [];
    const refuser = createServer((socket) => {
      attempts.push(Date.now());
      socket.destroy();
    });
    await new Promise<void>((resolve) => refuser.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = refuser.address() as AddressInfo;
      feed = new BinanceFeed({
        streamUrl: `ws://127.0.0.1:${port}`,
        initialBackoffMs: 40,
        maxBackoffMs: 160,
      });
      feed.start(['BTC/USDT']);
      await new Promise((resolve) => setTimeout(resolve, 700));
      await feed.close();
      // Delays of 20-40, 40-80, then 80-160 ms each: a handful of attempts, not hundreds, growing apart.
      expect(feed.stats.connects).toBe(0);
      expect(attempts.length).toBeGreaterThanOrEqual(4);
      expect(attempts.length).toBeLessThanOrEqual(12);
      const gaps = attempts.slice(1).map((time, index) => time - (attempts[index] as number));
      expect(Math.min(...gaps.slice(2))).toBeGreaterThanOrEqual(70);
    } finally {
      await new Promise((resolve) => refuser.close(resolve));
    }
  });

  it('reconnects on a serverShutdown notice', async () => {
    const shutdown = JSON.stringify({ e: 'serverShutdown', E: 1767225605000 });
    exchange = await startStandInExchange({
      drop: false,
      framesFor: (connection) => (connection === 0 ? [shutdown] : []),
    });
    feed = new BinanceFeed({ streamUrl: exchange.streamUrl, initialBackoffMs: 10 });
    feed.start(['BTC/USDT']);
    await until(() => (exchange?.connections.length ?? 0) >= 2);
  });

  it('yields no price once the last one is older than maxAgeMs', async () => {
    exchange = await startStandInExchange({ drop: false });
    feed = new BinanceFeed({ streamUrl: exchange.streamUrl, maxAgeMs: 60_000 });
    feed.start(['BTC/USDT']);
    await until(() => feed?.stats.messages === MINI_TICKER_FRAMES.length);
    expect(feed.latest('BTC/USDT', 1767225603126 + 60_000)).toBeDefined();
    expect(feed.latest('BTC/USDT', 1767225603126 + 60_001)).toBeUndefined();
  });

  it('reads history from klines in Shanghai time, whole bars only', async () => {
    const untilMs = Date.UTC(2026, 0, 1, 0, 3);
    const row = (openMs: number, close: string) => [
      openMs,
      '100.5',
      '101',
      '99',
      close,
      '2.5',
      openMs + 59_999,
      '250.1',
      12,
      '1',
      '100',
      '0',
    ];
    exchange = await startStandInExchange({
      klines: () => [
        row(untilMs - 180_000, '100.7'),
        row(untilMs - 120_000, '100.8'),
        row(untilMs - 60_000, '100.9'),
        row(untilMs, '101'),
      ],
    });
    feed = new BinanceFeed({ restUrl: exchange.restUrl });
    const history = await feed.history('BTC/USDT', untilMs);
    expect(history.get('1min')?.map((bar) => bar.close)).toEqual(['100.7', '100.8', '100.9']);
    expect(history.get('1min')?.[0]).toEqual({
      openTimeMs: untilMs - 180_000,
      open: '100.5',
      high: '101',
      low: '99',
      close: '100.7',
      volume: '2.5',
      turnover: '250.1',
    });
    const intervals = exchange.klineRequests.map((query) => query.get('interval'));
    expect(intervals).toEqual(['1m', '5m', '15m', '30m', '1h', '1d', '1w', '1M']);
    for (const query of exchange.klineRequests) {
      expect(query.get('symbol')).toBe('BTCUSDT');
      expect(query.get('timeZone')).toBe('8');
      expect(query.get('endTime')).toBe(String(untilMs - 1));
    }
  });

  it('refuses a klines answer that is not a list, and skips malformed rows', () => {
    expect(() => parseKlines({ code: -1121, msg: 'Invalid symbol.' }, 0)).toThrow(/not a list/);
    expect(parseKlines([[1, 'x', '1', '1', '1', '1', 2, '1'], 'row', [1]], 10)).toEqual([]);
  });
});
