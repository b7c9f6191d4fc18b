// A client written for the template's API (socket.io v2, Engine.IO 3) connects and only listens: it must
// receive the public pushes without subscribing, `daymarket` with `close`, and after a `login` with its
// token (bare or as {token}) its own `update_balance`; a bare user id in `login` gets nothing private.
import type { FastifyInstance } from 'fastify';
import { io as connectV4 } from 'socket.io-client';
import connectV2 from 'socket.io-client-v2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CHANNELS_PER_SOCKET } from '@fairex/shared';
import { TEMPLATE_CHANNELS_MAX } from '../src/realtime/index.ts';
import type { Store } from '../src/store/index.ts';
import { createUser, loginAs, removeTempDirs } from './helper.ts';
import { BTC_USDT, listeningMarketApp, trade, until } from './market/helpers.ts';

let store: Store;
let app: FastifyInstance;
let url: string;
const sockets: { close(): unknown }[] = [];

type Message = { event: string; payload: Record<string, unknown> };

beforeAll(async () => {
  ({ store, app, url } = await listeningMarketApp());
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await app.close();
  await store.close();
  await removeTempDirs();
});

const EVENTS = ['daymarket', 'kline', 'market_depth', 'market_detail', 'transaction', 'update_balance'];

/** A v2 client that records the events a template client listens to, connected. */
async function templateClient(transport: 'websocket' | 'polling' = 'websocket'): Promise<{
  socket: ReturnType<typeof connectV2>;
  messages: Message[];
}> {
  const socket = connectV2(url, { path: '/socket.io', transports: [transport], forceNew: true });
  sockets.push(socket);
  const messages: Message[] = [];
  for (const event of EVENTS) {
    socket.on(event, (payload) => messages.push({ event, payload: payload as Record<string, unknown> }));
  }
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, messages };
}

const of = (messages: Message[], event: string) =>
  messages.filter((message) => message.event === event).map((message) => message.payload);

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function deposit(userId: number, currencyId: number, amount: bigint): Promise<void> {
  const outcome = await app.runner.submit({ type: 'deposit', userId, currencyId, amount });
  expect(outcome.code).toBe(0);
}

describe('a template-era client that only listens', () => {
  it('receives daymarket, market_depth, market_detail, transaction and kline without subscribing', async () => {
    const { messages } = await templateClient();
    await trade(app, 6_700_000, 3);
    // Until each event has come for the pair, the board and the trade list since the trade (a board pushed
    // before it, with no price yet, may come first).
    await until(
      () =>
        ['daymarket', 'market_depth', 'market_detail', 'transaction', 'kline'].every((event) =>
          of(messages, event).some((payload) => payload.symbol === BTC_USDT.symbol),
        ) &&
        of(messages, 'daymarket').some(
          (payload) => payload.symbol === BTC_USDT.symbol && payload.now_price !== '',
        ) &&
        of(messages, 'market_detail').some(
          (payload) =>
            payload.symbol === BTC_USDT.symbol && (payload.data as unknown[] | undefined)?.length !== 0,
        ),
    );
    const day = of(messages, 'daymarket').findLast((payload) => payload.symbol === 'BTC/USDT');
    // `close` is the price now, as the template's board reads it.
    expect(day).toMatchObject({ now_price: '67000.00', close: '67000.00' });
    const detail = of(messages, 'market_detail').findLast((payload) => payload.symbol === 'BTC/USDT');
    const first = (detail?.data as Record<string, unknown>[])[0];
    expect(first).toMatchObject({ price: '67000.00', amount: '0.0003', direction: 'buy' });
    // The trade time as the chart's zone shows it, and the milliseconds beside it.
    expect(first?.time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(typeof first?.time_ms).toBe('number');
    expect(of(messages, 'kline').some((bar) => bar.period === '1min' && bar.close === '67000.00')).toBe(true);
  });

  it('gets the current state of its channels at once, on WebSocket and on long-polling', async () => {
    for (const transport of ['websocket', 'polling'] as const) {
      const { messages } = await templateClient(transport);
      // Snapshots: every ticker, each displayed pair's book and trades, and its current 1-minute bar.
      await until(
        () =>
          of(messages, 'daymarket').length >= 7 &&
          of(messages, 'market_depth').length >= 7 &&
          of(messages, 'market_detail').length >= 7 &&
          of(messages, 'kline').some((bar) => bar.symbol === 'BTC/USDT'),
      );
    }
  });

  it('gets its own balance pushes after login with its token, bare or as {token}', async () => {
    for (const asObject of [false, true]) {
      const userId = await createUser(store);
      const token = await loginAs(store, userId);
      const { socket, messages } = await templateClient();
      const reply = await new Promise<{ type: string }>((resolve) =>
        socket.emit('login', asObject ? { token } : token, resolve),
      );
      expect(reply.type).toBe('ok');
      await deposit(userId, BTC_USDT.quoteId, 5_000_000n);
      await until(() => of(messages, 'update_balance').length > 0);
      expect(of(messages, 'update_balance')[0]).toMatchObject({
        currency_id: BTC_USDT.quoteId,
        wallet: 'change',
        balance: '5.000000',
      });
    }
  });

  it('gets nothing private after login with a bare user id, but still the public pushes', async () => {
    const userId = await createUser(store);
    for (const login of [userId, String(userId), { user_id: userId }]) {
      const { socket, messages } = await templateClient();
      const reply = await new Promise<{ type: string }>((resolve) => socket.emit('login', login, resolve));
      expect(reply.type).toBe('999');
      await deposit(userId, BTC_USDT.quoteId, 1_000_000n);
      await trade(app, 6_710_000, 1);
      await until(() => of(messages, 'market_detail').length > 0);
      await wait(100);
      expect(of(messages, 'update_balance')).toEqual([]);
    }
  });

  it('is joined to a bounded number of channels, and may still subscribe to others', async () => {
    const { socket } = await templateClient();
    const server = app.realtime.io.sockets.sockets.get((socket as unknown as { id: string }).id);
    const joined = [...(server?.data.channels ?? [])];
    expect(joined.length).toBeGreaterThan(0);
    expect(joined.length).toBeLessThanOrEqual(TEMPLATE_CHANNELS_MAX);
    expect(TEMPLATE_CHANNELS_MAX).toBeLessThan(MAX_CHANNELS_PER_SOCKET);
    expect(joined).toContain('daymarket');
    const reply = await new Promise<{ type: string }>((resolve) =>
      socket.emit('subscribe', { channel: 'kline:BTC/USDT:5min' }, resolve),
    );
    expect(reply.type).toBe('ok');
  });
});

describe("Fairex's own v4 client", () => {
  it('joins nothing until it subscribes, also after a {token} login', async () => {
    const userId = await createUser(store);
    const token = await loginAs(store, userId);
    const socket = connectV4(url, { transports: ['websocket'], forceNew: true, reconnection: false });
    sockets.push(socket);
    const messages: string[] = [];
    socket.onAny((event: string) => messages.push(event));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    expect(await socket.emitWithAck('login', { token })).toMatchObject({ type: 'ok' });
    await trade(app, 6_720_000, 1);
    await wait(200);
    expect(messages.filter((event) => event !== 'update_balance')).toEqual([]);
  });
});
