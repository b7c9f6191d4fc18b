import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MarketDepthPayload, SocketAck, TransactionPayload } from '@fairex/shared/socket-events.ts';
import {
  FLUSH_INTERVAL_MS,
  HIDDEN_PAUSE_MS,
  SERVER_CLOSE_RETRY_MS,
  SocketManager,
  type SocketLike,
} from './socket.ts';
import { clearLoginRequest, refreshSession, sessionStore } from './session.ts';
import { isFeedStale } from './feeds.ts';

type Handler = (...args: never[]) => void;

/** An in-memory stand-in for a socket.io client socket: records what is emitted, lets the test push. */
class FakeSocket implements SocketLike {
  connected = false;
  readonly emitted: Array<[string, unknown]> = [];
  /** What the server answers to `login`; other requests are accepted. */
  loginReply: SocketAck = { type: 'ok', message: '' };
  connects = 0;
  disconnects = 0;
  private readonly handlers = new Map<string, Set<Handler>>();

  on(event: string, listener: Handler): void {
    const set = this.handlers.get(event) ?? new Set();
    set.add(listener);
    this.handlers.set(event, set);
  }

  off(event: string, listener: Handler): void {
    this.handlers.get(event)?.delete(listener);
  }

  emit(event: string, ...args: unknown[]): void {
    this.emitted.push([event, args[0]]);
    const ack = args.find((arg) => typeof arg === 'function') as ((reply: SocketAck) => void) | undefined;
    ack?.(event === 'login' ? this.loginReply : { type: 'ok', message: '' });
  }

  connect(): void {
    this.connects += 1;
  }

  disconnect(): void {
    this.disconnects += 1;
    this.serverDisconnects();
  }

  /** The server accepted the connection. */
  open(): void {
    this.connected = true;
    this.push('connect');
  }

  serverDisconnects(reason = 'transport close'): void {
    this.connected = false;
    this.push('disconnect', reason);
  }

  push(event: string, payload?: unknown): void {
    for (const handler of this.handlers.get(event) ?? []) (handler as (payload: unknown) => void)(payload);
  }

  take(): Array<[string, unknown]> {
    return this.emitted.splice(0);
  }
}

class FakeDocument {
  hidden = false;
  private listener: (() => void) | null = null;
  addEventListener(_type: string, listener: () => void): void {
    this.listener = listener;
  }
  removeEventListener(): void {
    this.listener = null;
  }
  setHidden(hidden: boolean): void {
    this.hidden = hidden;
    this.listener?.();
  }
}

function depth(seq: number, bidPrice = '100'): MarketDepthPayload {
  return {
    type: 'market_depth',
    symbol: 'BTC/USDT',
    legal_id: 3,
    currency_id: 1,
    seq,
    bids: [[bidPrice, '1']],
    asks: [],
  };
}

function book(seq: number): TransactionPayload {
  return {
    type: 'transaction',
    symbol: 'BTC/USDT',
    legal_id: 3,
    currency_id: 1,
    seq,
    last_price: '100',
    in: [],
    out: [],
  };
}

describe('socket manager', () => {
  let socket: FakeSocket;
  let document: FakeDocument;
  let manager: SocketManager;

  beforeEach(() => {
    vi.useFakeTimers();
    localStorage.clear();
    refreshSession();
    clearLoginRequest();
    socket = new FakeSocket();
    document = new FakeDocument();
    manager = new SocketManager({
      createSocket: () => socket,
      document: document as unknown as Document,
    });
  });

  afterEach(() => {
    manager.dispose();
    vi.useRealTimers();
  });

  it('does not connect before anything is subscribed', () => {
    expect(socket.connects).toBe(0);
    expect(manager.feeds.getState().connection).toBe('idle');
  });

  it('subscribes a channel once however many components want it, and releases it with the last one', () => {
    const first = manager.subscribe('market:BTC/USDT');
    socket.open();
    expect(socket.take()).toEqual([['subscribe', { channel: 'market:BTC/USDT' }]]);

    const second = manager.subscribe('market:BTC/USDT');
    expect(socket.take()).toEqual([]);
    expect(manager.subscriberCount('market:BTC/USDT')).toBe(2);

    first();
    first();
    expect(socket.take()).toEqual([]);
    second();
    expect(socket.take()).toEqual([['unsubscribe', { channel: 'market:BTC/USDT' }]]);
    expect(manager.subscriberCount('market:BTC/USDT')).toBe(0);
  });

  it('subscribes every held channel again after a reconnect', () => {
    manager.subscribe('daymarket');
    manager.subscribe('kline:BTC/USDT:1min');
    const stale = () => isFeedStale(manager.feeds.getState().connection, manager.feeds.getState().everLive);
    // Figures fetched before the first connection are as fresh as the fetch; not greyed out.
    expect(stale()).toBe(false);
    socket.open();
    socket.take();
    expect(stale()).toBe(false);
    socket.serverDisconnects();
    expect(manager.feeds.getState().connection).toBe('offline');
    // Once a live connection dropped, what the screen shows stopped updating.
    expect(stale()).toBe(true);
    socket.open();
    expect(stale()).toBe(false);
    expect(socket.take()).toEqual([
      ['subscribe', { channel: 'daymarket' }],
      ['subscribe', { channel: 'kline:BTC/USDT:1min' }],
    ]);
    expect(manager.feeds.getState().connection).toBe('live');
  });

  it('connects again after the server itself closed the connection (a restart), which socket.io does not', () => {
    vi.useFakeTimers();
    try {
      manager.subscribe('daymarket');
      socket.open();
      const before = socket.connects;
      socket.serverDisconnects('io server disconnect');
      expect(manager.feeds.getState().connection).toBe('offline');
      vi.advanceTimersByTime(SERVER_CLOSE_RETRY_MS - 1);
      expect(socket.connects).toBe(before);
      vi.advanceTimersByTime(1);
      expect(socket.connects).toBe(before + 1);
      socket.open();
      expect(socket.take()).toContainEqual(['subscribe', { channel: 'daymarket' }]);
      // A dropped transport is socket.io's own to retry: no extra attempt from the manager.
      socket.serverDisconnects('transport close');
      vi.advanceTimersByTime(SERVER_CLOSE_RETRY_MS * 2);
      expect(socket.connects).toBe(before + 1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('proves the stored token on connect and follows later logins and logouts', () => {
    localStorage.setItem('token', 't1');
    refreshSession();
    manager.subscribe('daymarket');
    socket.open();
    expect(socket.take()[0]).toEqual(['login', { token: 't1' }]);

    sessionStore.setState({ token: 't2' });
    expect(socket.take()).toEqual([['login', { token: 't2' }]]);
    sessionStore.setState({ token: null });
    expect(socket.take()).toEqual([['logout', undefined]]);
  });

  it('treats a refused login (999) like an expired session', () => {
    localStorage.setItem('token', 'dead');
    refreshSession();
    socket.loginReply = { type: '999', message: 'log in' };
    manager.subscribe('daymarket');
    socket.open();
    expect(localStorage.getItem('token')).toBeNull();
    vi.advanceTimersByTime(500);
    expect(sessionStore.getState().loginRequest?.reason).toBe('expired');
  });

  it('keeps market messages of subscribed symbols only, and never lets an older one overwrite a newer one', () => {
    manager.subscribe('market:BTC/USDT');
    socket.open();
    socket.push('market_depth', { ...depth(1), symbol: 'ETH/USDT' });
    expect(manager.feeds.getState().markets['ETH/USDT']).toBeUndefined();

    socket.push('market_depth', depth(5, '101'));
    expect(manager.feeds.getState().markets['BTC/USDT']?.depth?.seq).toBe(5);
    socket.push('market_depth', depth(4, '99'));
    socket.push('transaction', book(2));
    vi.advanceTimersByTime(FLUSH_INTERVAL_MS);
    const feed = manager.feeds.getState().markets['BTC/USDT'];
    expect(feed?.depth?.bids[0]?.[0]).toBe('101');
    expect(feed?.transaction?.seq).toBe(2);
  });

  it('applies a burst of messages in one store update', () => {
    manager.subscribe('market:BTC/USDT');
    socket.open();
    const updates = vi.fn();
    const stop = manager.feeds.subscribe(updates);
    socket.push('market_depth', depth(1));
    expect(updates).toHaveBeenCalledTimes(1);
    for (let seq = 2; seq <= 20; seq += 1) socket.push('market_depth', depth(seq));
    expect(updates).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(FLUSH_INTERVAL_MS);
    expect(updates).toHaveBeenCalledTimes(2);
    expect(manager.feeds.getState().markets['BTC/USDT']?.depth?.seq).toBe(20);
    stop();
  });

  it('accepts a restarted server counting from one again after a reconnect', () => {
    manager.subscribe('market:BTC/USDT');
    socket.open();
    socket.push('market_depth', depth(900));
    socket.serverDisconnects();
    socket.open();
    socket.push('market_depth', depth(1, '55'));
    vi.advanceTimersByTime(FLUSH_INTERVAL_MS);
    expect(manager.feeds.getState().markets['BTC/USDT']?.depth?.bids[0]?.[0]).toBe('55');
  });

  it('forgets a channel value when its last subscriber leaves', () => {
    const release = manager.subscribe('kline:BTC/USDT:1min');
    socket.open();
    socket.push('kline', {
      type: 'kline',
      symbol: 'BTC/USDT',
      period: '1min',
      time: 0,
      open: '1',
      close: '1',
      high: '1',
      low: '1',
      volume: '0',
      change: '0',
    });
    expect(manager.feeds.getState().bars['kline:BTC/USDT:1min']?.close).toBe('1');
    release();
    expect(manager.feeds.getState().bars['kline:BTC/USDT:1min']).toBeUndefined();
  });

  it('pauses while the tab stays hidden and resumes with fresh subscriptions when shown', () => {
    manager.subscribe('daymarket');
    socket.open();
    socket.take();

    document.setHidden(true);
    vi.advanceTimersByTime(HIDDEN_PAUSE_MS - 1);
    document.setHidden(false);
    document.setHidden(true);
    vi.advanceTimersByTime(HIDDEN_PAUSE_MS - 1);
    expect(socket.disconnects).toBe(0);
    vi.advanceTimersByTime(1);
    expect(socket.disconnects).toBe(1);
    expect(manager.feeds.getState().connection).toBe('paused');

    document.setHidden(false);
    expect(socket.connects).toBe(2);
    socket.open();
    expect(socket.take()).toEqual([['subscribe', { channel: 'daymarket' }]]);
  });

  it('passes private events to listeners until they stop listening', () => {
    const listener = vi.fn();
    const stop = manager.on('update_balance', listener);
    socket.push('update_balance', { type: 'update_balance', currency_id: 1 });
    expect(listener).toHaveBeenCalledTimes(1);
    stop();
    socket.push('update_balance', { type: 'update_balance', currency_id: 1 });
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
