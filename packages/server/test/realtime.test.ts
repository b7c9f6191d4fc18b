// socket.io through a listening app: v4 and v2 clients, channel subscriptions, token login for private
// events, and fan-out across two app processes through Redis when REDIS_URL is set.
import { randomBytes } from 'node:crypto';
import type { AddressInfo, Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Socket as ClientSocket } from 'socket.io-client';
import { io as connectV4 } from 'socket.io-client';
import connectV2 from 'socket.io-client-v2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type {
  ClientToServerEvents,
  MarketDepthPayload,
  ServerToClientEvents,
  SocketAck,
  UpdateBalancePayload,
} from '@fairex/shared';
import { hashToken } from '../src/auth/sessions.ts';
import type { Store } from '../src/store/index.ts';
import { buildTestApp, createUser, loginAs, openTestStore, removeTempDirs } from './helper.ts';
import { until } from './market/helpers.ts';

type V4Socket = ClientSocket<ServerToClientEvents, ClientToServerEvents>;

const redisUrl = process.env.REDIS_URL;
const depth: MarketDepthPayload = {
  type: 'market_depth',
  symbol: 'BTC/USDT',
  legal_id: 3,
  currency_id: 1,
  seq: 1,
  bids: [['64000.00', '0.5000']],
  asks: [['64000.50', '0.2500']],
};
const balance: UpdateBalancePayload = {
  type: 'update_balance',
  currency_id: 3,
  currency_name: 'USDT',
  wallet: 'change',
  balance: '100.000000',
  lock_balance: '0.000000',
};

let store: Store;
const apps: FastifyInstance[] = [];
const sockets: { close(): unknown }[] = [];

async function listeningApp(
  env: Record<string, string> = {},
  redisKey?: string,
): Promise<{ app: FastifyInstance; url: string }> {
  // Several apps share one store here, and only one process may run the engine on a database; the
  // socket layer under test does not need it.
  const app = await buildTestApp(store, { seed: false, env, redisKey, engine: false });
  apps.push(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}` };
}

function v4(url: string, options: Parameters<typeof connectV4>[1] = {}): V4Socket {
  const socket: V4Socket = connectV4(url, {
    path: '/socket.io/',
    transports: ['websocket'],
    forceNew: true,
    ...options,
  });
  sockets.push(socket);
  return socket;
}

function emitWithAck(
  socket: V4Socket,
  event: 'login' | 'subscribe' | 'unsubscribe',
  payload: unknown,
): Promise<SocketAck> {
  return new Promise((resolve) => {
    (socket.emit as (name: string, data: unknown, ack: (reply: SocketAck) => void) => void)(
      event,
      payload,
      resolve,
    );
  });
}

/** Resolves with the next `event` on the socket, or with undefined after `timeoutMs`. */
function next<T>(
  socket: { once(event: string, listener: (payload: T) => void): unknown; off?: unknown },
  event: string,
  timeoutMs = 3000,
): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), timeoutMs);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

beforeAll(async () => {
  store = await openTestStore();
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  for (const app of apps) await app.close();
  await store?.close();
  await removeTempDirs();
});

describe('socket.io on one process', () => {
  let app: FastifyInstance;
  let url: string;

  beforeAll(async () => {
    ({ app, url } = await listeningApp());
  });

  it('delivers a published event to a subscribed v4 client', async () => {
    const socket = v4(url);
    expect(await emitWithAck(socket, 'subscribe', { channel: 'market:BTC/USDT' })).toEqual({
      type: 'ok',
      message: 'Success',
    });
    const received = next<MarketDepthPayload>(socket, 'market_depth');
    app.realtime.publish('market:BTC/USDT', 'market_depth', depth);
    expect(await received).toEqual(depth);
  });

  it('delivers only to subscribers of the channel', async () => {
    const subscribed = v4(url);
    const other = v4(url);
    await emitWithAck(subscribed, 'subscribe', { channel: 'market:ETH/USDT' });
    await emitWithAck(other, 'subscribe', { channel: 'market:XRP/USDT' });
    const missed = next(other, 'market_depth', 300);
    const got = next(subscribed, 'market_depth');
    app.realtime.publish('market:ETH/USDT', 'market_depth', { ...depth, symbol: 'ETH/USDT' });
    expect(await got).toMatchObject({ symbol: 'ETH/USDT' });
    expect(await missed).toBeUndefined();
  });

  it('sends the events of one turn together, in the order they were published, to v4 and polling clients', async () => {
    const websocket = v4(url);
    const polling = v4(url, { transports: ['polling'] });
    for (const socket of [websocket, polling]) {
      await emitWithAck(socket, 'subscribe', { channel: 'market:DOGE/USDT' });
    }
    const seen = [websocket, polling].map((socket) => {
      const events: string[] = [];
      socket.onAny((event: string, payload: { seq?: number }) => events.push(`${event}:${payload.seq}`));
      return events;
    });
    const before = app.realtime.fanoutStats();
    const symbol = { ...depth, symbol: 'DOGE/USDT' };
    app.realtime.publish('market:DOGE/USDT', 'market_depth', { ...symbol, seq: 1 });
    app.realtime.publish('market:DOGE/USDT', 'market_depth', { ...symbol, seq: 2 });
    app.realtime.publish('market:DOGE/USDT', 'market_depth', { ...symbol, seq: 3 });
    const expected = ['market_depth:1', 'market_depth:2', 'market_depth:3'];
    await until(() => seen.every((events) => events.length === 3));
    expect(seen).toEqual([expected, expected]);
    const after = app.realtime.fanoutStats();
    // The WebSocket client got one buffer with three frames; the polling client three emits.
    expect(after.direct - before.direct).toBe(1);
    expect(after.emitted - before.emitted).toBe(3);
  });

  it('skips a subscriber that stopped reading instead of buffering for it without bound', async () => {
    const { port } = new URL(url);
    const raw = new WebSocket(`ws://127.0.0.1:${port}/socket.io/?EIO=4&transport=websocket`);
    sockets.push(raw);
    const subscribed = new Promise<void>((resolve) => {
      raw.on('message', (data: Buffer) => {
        const text = data.toString();
        if (text.startsWith('0')) raw.send('40');
        else if (text.startsWith('40')) raw.send('420["subscribe",{"channel":"market:ADA/USDT"}]');
        else if (text.startsWith('430')) resolve();
      });
    });
    await subscribed;
    // The client stops reading: the kernel buffers fill, then the server's socket holds what is unsent.
    (raw as unknown as { _socket: Socket })._socket.pause();
    const big = {
      ...depth,
      symbol: 'ADA/USDT',
      bids: Array.from({ length: 20_000 }, (): [string, string] => ['1.00', '1.0000']),
    };
    const before = app.realtime.fanoutStats();
    for (let turn = 0; turn < 60; turn++) {
      app.realtime.publish('market:ADA/USDT', 'market_depth', { ...big, seq: turn });
      await new Promise((resolve) => setImmediate(resolve));
    }
    const after = app.realtime.fanoutStats();
    expect(after.skipped - before.skipped).toBeGreaterThan(0);
    expect(after.direct - before.direct + after.skipped - before.skipped).toBe(60);
    raw.terminate();
  });

  it('completes a v2 (Engine.IO 3) handshake over polling and websocket and receives events', async () => {
    for (const transports of [['polling'], ['websocket']]) {
      const socket = connectV2(url, { path: '/socket.io', transports, forceNew: true });
      sockets.push(socket);
      const ack = await new Promise<SocketAck>((resolve) =>
        socket.emit('subscribe', { channel: 'daymarket' }, resolve),
      );
      expect(ack.type).toBe('ok');
      const received = next(socket, 'daymarket');
      const payload = {
        type: 'daymarket' as const,
        symbol: 'BTC/USDT',
        legal_id: 3,
        currency_id: 1,
        now_price: '64000.00',
        change: '1.20',
        high: '65000.00',
        low: '63000.00',
        volume: '12.5000',
        amount: '800000.000000',
        close: '64000.00',
        mark_price: null,
        index_price: null,
        price: '64000.00',
        price_kind: 'trade' as const,
      };
      app.realtime.publish('daymarket', 'daymarket', payload);
      expect(await received).toEqual(payload);
      socket.close();
    }
  });

  it('refuses channels outside the public grammar, including user rooms', async () => {
    const socket = v4(url);
    for (const channel of ['user:1', 'session:abc', 'market:btc', '', 42, null]) {
      expect(await emitWithAck(socket, 'subscribe', { channel })).toEqual({
        type: 'error',
        message: 'There is no such channel.',
      });
    }
    expect(await emitWithAck(socket, 'subscribe', 'market:BTC/USDT')).toMatchObject({ type: 'error' });
  });

  it('limits the number of channels per socket', async () => {
    const socket = v4(url, { query: { lang: 'zh' } });
    for (let index = 0; index < 32; index += 1) {
      expect((await emitWithAck(socket, 'subscribe', { channel: `kline:BTC/USDT:p${index}` })).type).toBe(
        'ok',
      );
    }
    expect(await emitWithAck(socket, 'subscribe', { channel: 'kline:BTC/USDT:p99' })).toEqual({
      type: 'error',
      message: '单个连接的订阅数量过多。',
    });
  });

  it('stops delivering after unsubscribe', async () => {
    const socket = v4(url);
    await emitWithAck(socket, 'subscribe', { channel: 'market:LTC/USDT' });
    expect((await emitWithAck(socket, 'unsubscribe', { channel: 'market:LTC/USDT' })).type).toBe('ok');
    const missed = next(socket, 'market_depth', 300);
    app.realtime.publish('market:LTC/USDT', 'market_depth', depth);
    expect(await missed).toBeUndefined();
  });

  describe('private events', () => {
    let userId: number;
    let token: string;

    beforeAll(async () => {
      userId = await createUser(store);
      token = await loginAs(store, userId);
    });

    it('are not delivered after a login with a wrong token or a bare user id', async () => {
      const socket = v4(url);
      expect(await emitWithAck(socket, 'login', { token: 'A'.repeat(43) })).toMatchObject({ type: '999' });
      expect(await emitWithAck(socket, 'login', userId)).toMatchObject({ type: '999' });
      expect(await emitWithAck(socket, 'login', { token: String(userId) })).toMatchObject({ type: '999' });
      const missed = next(socket, 'update_balance', 300);
      app.realtime.toUser(userId, 'update_balance', balance);
      expect(await missed).toBeUndefined();
      // One process, no logged-in socket: a push would reach nobody, so callers may skip building it.
      expect(app.realtime.mayReachUser(userId)).toBe(false);
    });

    it('are delivered after a login with the token, to that user only', async () => {
      const owner = v4(url);
      const stranger = v4(url);
      expect(await emitWithAck(owner, 'login', { token })).toEqual({ type: 'ok', message: 'Success' });
      expect(app.realtime.mayReachUser(userId)).toBe(true);
      const strangerToken = await loginAs(store, await createUser(store));
      expect((await emitWithAck(stranger, 'login', { token: strangerToken })).type).toBe('ok');
      const missed = next(stranger, 'update_balance', 300);
      const got = next(owner, 'update_balance');
      app.realtime.toUser(userId, 'update_balance', balance);
      expect(await got).toEqual(balance);
      expect(await missed).toBeUndefined();
    });

    it('accept the token in the v4 handshake', async () => {
      const socket = v4(url, { auth: { token } });
      await new Promise((resolve) => socket.once('connect', () => resolve(undefined)));
      // The handshake login is asynchronous; a subscribe round trip orders it before the event.
      await emitWithAck(socket, 'subscribe', { channel: 'daymarket' });
      const got = next(socket, 'update_balance');
      app.realtime.toUser(userId, 'update_balance', balance);
      expect(await got).toEqual(balance);
    });

    it('stop when the session ends', async () => {
      const sessionToken = await loginAs(store, userId);
      const socket = v4(url);
      expect((await emitWithAck(socket, 'login', { token: sessionToken })).type).toBe('ok');
      app.realtime.endSession(hashToken(sessionToken), userId);
      const missed = next(socket, 'update_balance', 300);
      app.realtime.toUser(userId, 'update_balance', balance);
      expect(await missed).toBeUndefined();
    });
  });
});

describe.runIf(redisUrl)('socket.io across two processes on Redis', () => {
  it('delivers an event published on one app to a client of the other', async () => {
    const env = { REDIS_URL: redisUrl ?? '' };
    const key = `fairex-test-${randomBytes(6).toString('hex')}`;
    const first = await listeningApp(env, key);
    const second = await listeningApp(env, key);
    const userId = await createUser(store);
    const token = await loginAs(store, userId);
    const socket = v4(first.url);
    await emitWithAck(socket, 'subscribe', { channel: 'market:BTC/USDT' });
    expect((await emitWithAck(socket, 'login', { token })).type).toBe('ok');

    // The adapter subscribes to Redis asynchronously; publish until the first delivery proves the path.
    const received = next<MarketDepthPayload>(socket, 'market_depth', 5000);
    const timer = setInterval(
      () => second.app.realtime.publish('market:BTC/USDT', 'market_depth', depth),
      100,
    );
    second.app.realtime.publish('market:BTC/USDT', 'market_depth', depth);
    const payload = await received;
    clearInterval(timer);
    expect(payload).toEqual(depth);

    const privateEvent = next(socket, 'update_balance', 5000);
    second.app.realtime.toUser(userId, 'update_balance', balance);
    expect(await privateEvent).toEqual(balance);
  });
});
