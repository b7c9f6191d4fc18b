// The realtime protocol of market data: a subscriber gets the channel's current state at once (a snapshot
// carrying the current sequence number), then coalesced updates whose numbers grow by one; a refused
// subscription gets nothing; a reconnecting client subscribes again and gets a fresh snapshot.
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'socket.io-client';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.ts';
import { removeTempDirs } from '../helper.ts';
import { listeningMarketApp, restingBid, trade, until } from './helpers.ts';

let store: Store;
let app: FastifyInstance;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  ({ store, app, url } = await listeningMarketApp());
});

afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await app.close();
  await store.close();
  await removeTempDirs();
});

type Message = { event: string; payload: Record<string, unknown> };

async function client(): Promise<{ socket: Socket; messages: Message[] }> {
  const socket = io(url, { transports: ['websocket'], reconnection: false, forceNew: true });
  sockets.push(socket);
  const messages: Message[] = [];
  socket.onAny((event: string, payload: Record<string, unknown>) => messages.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return { socket, messages };
}

async function subscribe(socket: Socket, channel: string): Promise<{ type: string }> {
  return socket.emitWithAck('subscribe', { channel }) as Promise<{ type: string }>;
}

const of = (messages: Message[], event: string) =>
  messages.filter((message) => message.event === event).map((message) => message.payload);

describe('market channel', () => {
  it('sends a snapshot, then updates numbered one by one', async () => {
    await trade(app, 6_700_000, 3);
    await until(() => app.marketData.recentTrades(1).length === 1);
    // Send what the trade made dirty now, so that the snapshot below is the only message about it.
    app.marketData.flushPushes();
    const { socket, messages } = await client();
    expect(await subscribe(socket, 'market:BTC/USDT')).toMatchObject({ type: 'ok' });
    await until(
      () => of(messages, 'market_detail').length === 1 && of(messages, 'market_depth').length === 1,
    );
    const [snapshotDepth] = of(messages, 'market_depth');
    const [snapshotDetail] = of(messages, 'market_detail');
    expect(snapshotDetail).toMatchObject({
      type: 'market_detail',
      symbol: 'BTC/USDT',
      legal_id: 3,
      currency_id: 1,
    });
    expect((snapshotDetail?.data as unknown[])[0]).toMatchObject({
      price: '67000.00',
      amount: '0.0003',
      direction: 'buy',
    });
    const firstDepthSeq = snapshotDepth?.seq as number;
    const firstDetailSeq = snapshotDetail?.seq as number;

    await restingBid(app, 6_600_000, 7);
    await until(() => of(messages, 'market_depth').length >= 2);
    const update = of(messages, 'market_depth')[1] as Record<string, unknown>;
    expect(update.seq).toBe(firstDepthSeq + 1);
    expect(update.bids).toEqual([['66000.00', '0.0007']]);
    expect(update.asks).toEqual([]);

    await trade(app, 6_650_000, 2);
    await until(() => of(messages, 'market_detail').length >= 2);
    const detail = of(messages, 'market_detail')[1] as { seq: number; data: { price: string }[] };
    expect(detail.seq).toBe(firstDetailSeq + 1);
    expect(detail.data.map((item) => item.price)).toEqual(['66500.00', '67000.00']);
    // The book changed in one or two batches (the ask rested, then the bid took it): one message each.
    await until(() => of(messages, 'market_depth').length >= 3);
    const seqs = of(messages, 'market_depth').map((message) => message.seq);
    expect(seqs).toEqual(seqs.map((_, index) => firstDepthSeq + index));
  });

  it('gives a refused subscription no snapshot, and a reconnecting client a fresh one', async () => {
    const { socket, messages } = await client();
    expect(await subscribe(socket, 'market:NOPE')).toMatchObject({ type: 'error' });
    expect(await subscribe(socket, 'market:DOGE/BTC')).toMatchObject({ type: 'ok' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(messages).toEqual([]);
    socket.disconnect();
    const again = await client();
    await subscribe(again.socket, 'market:BTC/USDT');
    await until(() => of(again.messages, 'market_depth').length === 1);
    // The snapshot carries the number of the latest update sent, and the book as it stands.
    const snapshot = of(again.messages, 'market_depth')[0] as { seq: number; bids: string[][] };
    expect(snapshot.seq).toBeGreaterThanOrEqual(2);
    expect(snapshot.bids).toContainEqual(['66000.00', '0.0007']);
  });
});

describe('kline and daymarket channels', () => {
  it('sends the current bar, then the bar as trades change it', async () => {
    const { socket, messages } = await client();
    await subscribe(socket, 'kline:BTC/USDT:1min');
    await until(() => of(messages, 'kline').length === 1);
    const bar = of(messages, 'kline')[0] as Record<string, unknown>;
    expect(bar).toMatchObject({ type: 'kline', symbol: 'BTC/USDT', period: '1min', close: '66500.00' });
    expect((bar.time as number) % 60_000).toBe(0);
    expect(bar.time as number).toBeLessThanOrEqual(Date.now());
    await trade(app, 6_680_000, 1);
    await until(() => of(messages, 'kline').some((message) => message.close === '66800.00'));
    // Other periods go to their own channels only.
    expect(new Set(of(messages, 'kline').map((message) => message.period))).toEqual(new Set(['1min']));
  });

  it('sends every ticker on subscribing, then the tickers that trades changed', async () => {
    const { socket, messages } = await client();
    await subscribe(socket, 'daymarket');
    await until(() => of(messages, 'daymarket').length === 7);
    const btc = of(messages, 'daymarket').find((message) => message.symbol === 'BTC/USDT');
    expect(btc).toMatchObject({
      type: 'daymarket',
      legal_id: 3,
      currency_id: 1,
      now_price: '66800.00',
      high: '67000.00',
      low: '66500.00',
    });
    await trade(app, 6_710_000, 1);
    await until(() => of(messages, 'daymarket').some((message) => message.now_price === '67100.00'));
    const latest = of(messages, 'daymarket').at(-1) as Record<string, unknown>;
    expect(latest).toMatchObject({ symbol: 'BTC/USDT', high: '67100.00', volume: '0.0007', change: '0.15' });
  });

  it('sends the ticker of a pair without trades on each new sample, its mark standing in', async () => {
    const { socket, messages } = await client();
    await subscribe(socket, 'daymarket');
    await until(() => of(messages, 'daymarket').length === 7);
    for (const ticks of [348_000, 348_500]) {
      const outcome = await app.runner.submit({
        type: 'recordPriceSamples',
        maxAgeMs: 10_000,
        minSources: 1,
        headIntervalMs: 60_000,
        samples: [[2, [['simulated', ticks, Date.now()]]]],
      });
      expect(outcome.code).toBe(0);
      const price = ticks === 348_000 ? '3480.00' : '3485.00';
      // Well within the minute after which every ticker is sent again anyway.
      await until(
        () =>
          of(messages, 'daymarket').some(
            (message) => message.symbol === 'ETH/USDT' && message.price === price,
          ),
        5_000,
      );
      const eth = of(messages, 'daymarket').findLast((message) => message.symbol === 'ETH/USDT');
      expect(eth).toMatchObject({ now_price: price, price_kind: 'mark', price, mark_price: price });
    }
  });
});
