import { io } from 'socket.io-client';
import { API_BASE } from './api-base.ts';
import { createStore, type StoreApi } from 'zustand';
import type {
  DaymarketPayload,
  KlinePayload,
  MarketDepthPayload,
  MarketDetailPayload,
  ServerToClientEvents,
  SocketAck,
  TransactionPayload,
} from '@fairex/shared/socket-events.ts';
import { reportNotLoggedIn, sessionStore } from './session.ts';

// The realtime connection (spec 03 section 9). Feed values live here, outside React, in one store
// shared by every component that reads them. Each channel is subscribed on the server once however
// many components want it (reference counting) and again after every reconnect; the session token
// is proved with `login` on every connect and whenever it changes; the connection is dropped while
// the tab is hidden and restored when it is shown. Market messages carry whole states (the book, the
// top of the depth, the latest trades), so a message replaces what was held; `seq` only keeps an
// older message from overwriting a newer one.

export const SOCKET_PATH = '/socket.io/';

/** A hidden tab keeps its connection this long, so a quick look at another tab costs nothing. */
export const HIDDEN_PAUSE_MS = 10_000;

/**
 * A server that closes connections itself (a restart, a deployment) says so ('io server disconnect'), and
 * socket.io then does not reconnect by itself; the manager tries again after this pause, and from then on
 * socket.io's own backoff retries until the server is back.
 */
export const SERVER_CLOSE_RETRY_MS = 2_000;

/** Bursts of messages are applied to the store at most this often; a first value is applied at once. */
export const FLUSH_INTERVAL_MS = 50;

export type ConnectionStatus = 'idle' | 'connecting' | 'live' | 'offline' | 'paused';

export interface MarketFeed {
  transaction?: TransactionPayload;
  depth?: MarketDepthPayload;
  trades?: MarketDetailPayload;
}

export interface FeedsState {
  connection: ConnectionStatus;
  /** Whether the connection was live at least once: a later drop leaves the shown data stale. */
  everLive: boolean;
  /** 24-hour tickers by symbol (channel `daymarket`). */
  tickers: Record<string, DaymarketPayload>;
  /** Book, depth and trades by symbol (channel `market:<symbol>`). */
  markets: Record<string, MarketFeed>;
  /** The latest bar by kline channel (`kline:<symbol>:<period>`). */
  bars: Record<string, KlinePayload>;
}

type Listener = (payload: never) => void;
type Ack = (reply: SocketAck) => void;

/** The part of a socket.io client socket the manager uses; tests pass a fake. */
export interface SocketLike {
  readonly connected: boolean;
  on(event: string, listener: (...args: never[]) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
  emit(event: string, ...args: unknown[]): unknown;
  connect(): unknown;
  disconnect(): unknown;
}

export interface SocketManagerOptions {
  createSocket: () => SocketLike;
  /** Visibility source; omitted where there is no document. */
  document?: Pick<Document, 'hidden' | 'addEventListener' | 'removeEventListener'>;
  hiddenPauseMs?: number;
  flushIntervalMs?: number;
  serverCloseRetryMs?: number;
}

const MARKET_EVENTS = ['transaction', 'market_depth', 'market_detail'] as const;

function emptyFeeds(): FeedsState {
  return { connection: 'idle', everLive: false, tickers: {}, markets: {}, bars: {} };
}

export class SocketManager {
  readonly feeds: StoreApi<FeedsState> = createStore<FeedsState>(emptyFeeds);
  private readonly options: SocketManagerOptions;
  private readonly counts = new Map<string, number>();
  private readonly lastSeq = new Map<string, number>();
  private socket: SocketLike | null = null;
  private paused = false;
  private hiddenTimer: ReturnType<typeof setTimeout> | null = null;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private pending: Array<(draft: FeedsState) => void> = [];
  private loggedInToken: string | null = null;
  private readonly stopWatchingSession: () => void;

  constructor(options: SocketManagerOptions) {
    this.options = options;
    options.document?.addEventListener('visibilitychange', this.onVisibilityChange);
    this.stopWatchingSession = sessionStore.subscribe((state) => this.syncLogin(state.token));
  }

  /** Subscribes to a public channel; the returned function releases this one subscription. */
  subscribe(channel: string): () => void {
    const count = (this.counts.get(channel) ?? 0) + 1;
    this.counts.set(channel, count);
    if (count === 1) {
      const socket = this.ensureSocket();
      if (socket.connected) socket.emit('subscribe', { channel }, this.logRefusal);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release(channel);
    };
  }

  /** Listens to a server event (the private events above all); returns the function that stops it. */
  on<E extends keyof ServerToClientEvents>(event: E, listener: ServerToClientEvents[E]): () => void {
    const socket = this.ensureSocket();
    socket.on(event, listener as Listener);
    return () => socket.off(event, listener as Listener);
  }

  subscriberCount(channel: string): number {
    return this.counts.get(channel) ?? 0;
  }

  dispose(): void {
    this.options.document?.removeEventListener('visibilitychange', this.onVisibilityChange);
    this.stopWatchingSession();
    if (this.hiddenTimer !== null) clearTimeout(this.hiddenTimer);
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.socket?.disconnect();
    this.socket = null;
    this.counts.clear();
    this.feeds.setState(emptyFeeds(), true);
  }

  private release(channel: string): void {
    const count = (this.counts.get(channel) ?? 0) - 1;
    if (count > 0) {
      this.counts.set(channel, count);
      return;
    }
    this.counts.delete(channel);
    if (this.socket?.connected) this.socket.emit('unsubscribe', { channel }, this.logRefusal);
    this.update((draft) => forgetChannel(draft, channel), true);
  }

  private ensureSocket(): SocketLike {
    if (this.socket !== null) return this.socket;
    const socket = this.options.createSocket();
    socket.on('connect', () => this.onConnect());
    socket.on('disconnect', (reason: string) => {
      this.loggedInToken = null;
      this.update((draft) => void (draft.connection = this.paused ? 'paused' : 'offline'), true);
      if (reason === 'io server disconnect' && !this.paused) this.retryAfterServerClose();
    });
    socket.on('daymarket', (payload: DaymarketPayload) =>
      this.update((draft) => void (draft.tickers = { ...draft.tickers, [payload.symbol]: payload })),
    );
    socket.on('kline', (payload: KlinePayload) => {
      const channel = `kline:${payload.symbol}:${payload.period}`;
      if (this.counts.has(channel))
        this.update((draft) => void (draft.bars = { ...draft.bars, [channel]: payload }));
    });
    for (const event of MARKET_EVENTS) {
      socket.on(event, (payload: TransactionPayload | MarketDepthPayload | MarketDetailPayload) =>
        this.onMarketMessage(payload),
      );
    }
    this.socket = socket;
    if (!this.paused) {
      this.update((draft) => void (draft.connection = 'connecting'), true);
      socket.connect();
    }
    return socket;
  }

  private retryAfterServerClose(): void {
    if (this.retryTimer !== null) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.paused && this.socket !== null && !this.socket.connected) this.socket.connect();
    }, this.options.serverCloseRetryMs ?? SERVER_CLOSE_RETRY_MS);
  }

  private onConnect(): void {
    // A restarted server counts again from its own start; older numbers say nothing any more.
    this.lastSeq.clear();
    this.update((draft) => {
      draft.connection = 'live';
      draft.everLive = true;
    }, true);
    this.syncLogin(sessionStore.getState().token);
    for (const channel of this.counts.keys()) this.socket?.emit('subscribe', { channel }, this.logRefusal);
  }

  /** Proves the current token on the open connection, or leaves the user's room after a logout. */
  private syncLogin(token: string | null): void {
    const socket = this.socket;
    if (socket === null || !socket.connected || token === this.loggedInToken) return;
    if (token === null) {
      this.loggedInToken = null;
      socket.emit('logout');
      return;
    }
    this.loggedInToken = token;
    socket.emit('login', { token }, ((reply) => {
      if (reply.type === '999') reportNotLoggedIn();
    }) satisfies Ack);
  }

  private onMarketMessage(payload: TransactionPayload | MarketDepthPayload | MarketDetailPayload): void {
    if (!this.counts.has(`market:${payload.symbol}`)) return;
    const key = `${payload.type}:${payload.symbol}`;
    const last = this.lastSeq.get(key);
    if (last !== undefined && payload.seq <= last) return;
    this.lastSeq.set(key, payload.seq);
    this.update((draft) => {
      const previous = draft.markets[payload.symbol] ?? {};
      const next: MarketFeed =
        payload.type === 'transaction'
          ? { ...previous, transaction: payload }
          : payload.type === 'market_depth'
            ? { ...previous, depth: payload }
            : { ...previous, trades: payload };
      draft.markets = { ...draft.markets, [payload.symbol]: next };
    });
  }

  /**
   * Queues a change to the feeds. Changes arriving together are applied in one store update at most
   * every FLUSH_INTERVAL_MS, so a burst of book messages costs one render; the first change after a
   * quiet spell (a first snapshot, a status change) is applied at once.
   */
  private update(change: (draft: FeedsState) => void, immediate = false): void {
    this.pending.push(change);
    if (immediate || this.flushTimer === null) {
      this.flush();
      if (!immediate)
        this.flushTimer = setTimeout(this.onFlushTimer, this.options.flushIntervalMs ?? FLUSH_INTERVAL_MS);
    }
  }

  private readonly onFlushTimer = (): void => {
    this.flushTimer = null;
    if (this.pending.length > 0) this.flush();
  };

  private flush(): void {
    if (this.pending.length === 0) return;
    const draft = { ...this.feeds.getState() };
    for (const change of this.pending) change(draft);
    this.pending = [];
    this.feeds.setState(draft, true);
  }

  private readonly logRefusal = (reply: SocketAck): void => {
    if (reply.type !== 'ok') console.warn(`The server refused a subscription: ${reply.message}`);
  };

  private readonly onVisibilityChange = (): void => {
    const document = this.options.document;
    if (document === undefined) return;
    if (document.hidden) {
      if (this.hiddenTimer === null && !this.paused) {
        this.hiddenTimer = setTimeout(() => this.pause(), this.options.hiddenPauseMs ?? HIDDEN_PAUSE_MS);
      }
      return;
    }
    if (this.hiddenTimer !== null) {
      clearTimeout(this.hiddenTimer);
      this.hiddenTimer = null;
    }
    if (this.paused) this.resume();
  };

  private pause(): void {
    this.hiddenTimer = null;
    this.paused = true;
    this.update((draft) => void (draft.connection = 'paused'), true);
    this.socket?.disconnect();
  }

  private resume(): void {
    this.paused = false;
    if (this.socket === null) return;
    this.update((draft) => void (draft.connection = 'connecting'), true);
    // Reconnecting runs onConnect, which logs in, subscribes every channel again and so gets fresh states.
    this.socket.connect();
  }
}

function forgetChannel(draft: FeedsState, channel: string): void {
  if (channel === 'daymarket') {
    draft.tickers = {};
  } else if (channel.startsWith('market:')) {
    const { [channel.slice('market:'.length)]: _forgotten, ...rest } = draft.markets;
    draft.markets = rest;
  } else if (channel.startsWith('kline:')) {
    const { [channel]: _forgotten, ...rest } = draft.bars;
    draft.bars = rest;
  }
}

function createBrowserSocket(): SocketLike {
  const options = { path: SOCKET_PATH, autoConnect: false };
  // The page's own origin unless the build names the API's (data/api-base.ts).
  return (API_BASE === '' ? io(options) : io(API_BASE, options)) as unknown as SocketLike;
}

export const socketManager = new SocketManager({
  createSocket: createBrowserSocket,
  ...(typeof document === 'undefined' ? {} : { document }),
});
