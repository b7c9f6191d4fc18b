// Price source on Binance's public market data (PRICE_SOURCE=binance). Prices come from the combined
// WebSocket stream of 24-hour mini tickers, one per symbol and second:
//
//   GET <stream>/stream?streams=btcusdt@miniTicker/ethusdt@miniTicker
//   {"stream":"btcusdt@miniTicker","data":{"e":"24hrMiniTicker","E":1700000000123,"s":"BTCUSDT",
//     "c":"67250.01000000","o":"...","h":"...","l":"...","v":"...","q":"..."}}
//
// `c` (the last price) is the price; `E` the event time. The server closes every connection after 24 hours
// and announces restarts with {"e":"serverShutdown"}; WebSocket pings are answered by the client. Whatever
// ends a connection (a drop, an error, a silent stream), the feed reconnects with exponential backoff and a
// random spread, and forgets prices older than `maxAgeMs`, so a dead feed yields no price rather than an old
// one. History comes from the REST klines of the same market-data host, in Shanghai time (timeZone=8):
//
//   GET <rest>/api/v3/klines?symbol=BTCUSDT&interval=1m&endTime=...&limit=1000&timeZone=8
//   [[openTimeMs, "open", "high", "low", "close", "volume", closeTimeMs, "quoteVolume", ...], ...]
import type { HistoryBar, PriceQuote, PriceSource } from './price-source.ts';
import type { Period } from './periods.ts';
import { PERIODS } from './periods.ts';

export const BINANCE_STREAM_URL = 'wss://data-stream.binance.vision';
export const BINANCE_REST_URL = 'https://data-api.binance.vision';

const INTERVALS: Record<Period, string> = {
  '1min': '1m',
  '5min': '5m',
  '15min': '15m',
  '30min': '30m',
  '60min': '1h',
  '1day': '1d',
  '1week': '1w',
  '1mon': '1M',
};

const DECIMAL = /^\d{1,20}(?:\.\d{1,20})?$/;

export interface FeedLogger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
}

export interface BinanceFeedOptions {
  streamUrl?: string;
  restUrl?: string;
  logger?: FeedLogger;
  /** First reconnect delay; doubles per failed attempt up to maxBackoffMs (defaults 500 ms and 30 s). */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** A connection silent this long is closed and replaced (default 30 s). */
  silenceMs?: number;
  /** A price older than this is no price (default 60 s). */
  maxAgeMs?: number;
  /** Bars asked for per period when backfilling (default 1000, Binance's maximum). */
  historyLimit?: number;
  fetch?: typeof fetch;
}

export interface FeedStats {
  connects: number;
  messages: number;
  connected: boolean;
}

export class BinanceFeed implements PriceSource {
  readonly name = 'binance';
  readonly #options: Required<Omit<BinanceFeedOptions, 'logger' | 'fetch'>> &
    Pick<BinanceFeedOptions, 'logger'>;
  readonly #fetch: typeof fetch;
  readonly #prices = new Map<string, PriceQuote>();
  /** "BTCUSDT" -> "BTC/USDT". */
  readonly #symbols = new Map<string, string>();
  #socket: WebSocket | undefined;
  #attempt = 0;
  #reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  #silenceTimer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;
  readonly stats: FeedStats = { connects: 0, messages: 0, connected: false };

  constructor(options: BinanceFeedOptions = {}) {
    this.#options = {
      streamUrl: options.streamUrl ?? BINANCE_STREAM_URL,
      restUrl: options.restUrl ?? BINANCE_REST_URL,
      logger: options.logger,
      initialBackoffMs: options.initialBackoffMs ?? 500,
      maxBackoffMs: options.maxBackoffMs ?? 30_000,
      silenceMs: options.silenceMs ?? 30_000,
      maxAgeMs: options.maxAgeMs ?? 60_000,
      historyLimit: options.historyLimit ?? 1000,
    };
    this.#fetch = options.fetch ?? fetch;
  }

  start(symbols: readonly string[]): void {
    for (const symbol of symbols) this.#symbols.set(exchangeSymbol(symbol), symbol);
    if (this.#symbols.size > 0) this.#connect();
  }

  resume(): void {}

  latest(symbol: string, nowMs: number): PriceQuote | undefined {
    const quote = this.#prices.get(symbol);
    return quote !== undefined && nowMs - quote.timeMs <= this.#options.maxAgeMs ? quote : undefined;
  }

  async history(symbol: string, untilMs: number): Promise<Map<Period, HistoryBar[]>> {
    const result = new Map<Period, HistoryBar[]>();
    for (const period of PERIODS) {
      const url = new URL('/api/v3/klines', this.#options.restUrl);
      url.searchParams.set('symbol', exchangeSymbol(symbol));
      url.searchParams.set('interval', INTERVALS[period]);
      url.searchParams.set('endTime', String(untilMs - 1));
      url.searchParams.set('limit', String(this.#options.historyLimit));
      url.searchParams.set('timeZone', '8');
      const response = await this.#fetch(url, { signal: AbortSignal.timeout(15_000) });
      if (!response.ok) throw new Error(`klines ${symbol} ${period}: HTTP ${response.status}`);
      result.set(period, parseKlines(await response.json(), untilMs));
    }
    return result;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#reconnectTimer);
    clearTimeout(this.#silenceTimer);
    this.#socket?.close();
    this.#socket = undefined;
  }

  #connect(): void {
    if (this.#closed) return;
    const streams = [...this.#symbols.keys()].map((name) => `${name.toLowerCase()}@miniTicker`).join('/');
    const socket = new WebSocket(`${this.#options.streamUrl}/stream?streams=${streams}`);
    this.#socket = socket;
    this.#watchSilence(socket);
    socket.addEventListener('open', () => {
      this.stats.connects++;
      this.stats.connected = true;
      this.#options.logger?.info({ source: this.name, attempt: this.#attempt }, 'price feed connected');
    });
    socket.addEventListener('message', (event) => this.#onMessage(socket, event.data));
    // An error is always followed by close, where the reconnect is scheduled.
    socket.addEventListener('error', () => {});
    socket.addEventListener('close', () => this.#onClose(socket));
  }

  #onMessage(socket: WebSocket, data: unknown): void {
    if (socket !== this.#socket) return;
    this.stats.messages++;
    // A message proves the connection works: the next failure starts the backoff from the beginning.
    this.#attempt = 0;
    this.#watchSilence(socket);
    let parsed: unknown;
    try {
      parsed = JSON.parse(typeof data === 'string' ? data : String(data));
    } catch {
      return;
    }
    const payload = (parsed as { data?: unknown }).data ?? parsed;
    if (typeof payload !== 'object' || payload === null) return;
    const { e: type, s: name, c: close, E: eventTimeMs } = payload as Record<string, unknown>;
    if (type === 'serverShutdown') {
      socket.close();
      return;
    }
    if (type !== '24hrMiniTicker' || typeof name !== 'string' || typeof close !== 'string') return;
    const symbol = this.#symbols.get(name);
    if (symbol === undefined || !DECIMAL.test(close) || !/[1-9]/.test(close)) return;
    const timeMs =
      typeof eventTimeMs === 'number' && Number.isSafeInteger(eventTimeMs) ? eventTimeMs : Date.now();
    this.#prices.set(symbol, { price: close, timeMs });
  }

  #onClose(socket: WebSocket): void {
    if (socket !== this.#socket) return;
    this.#socket = undefined;
    this.stats.connected = false;
    clearTimeout(this.#silenceTimer);
    if (this.#closed) return;
    const delayMs = this.#backoffMs();
    this.#attempt++;
    this.#options.logger?.warn({ source: this.name, delayMs }, 'price feed disconnected; reconnecting');
    this.#reconnectTimer = setTimeout(() => this.#connect(), delayMs);
  }

  /** initial x 2^attempt, at most the maximum, then spread over its upper half so clients do not stampede. */
  #backoffMs(): number {
    const ceiling = Math.min(this.#options.maxBackoffMs, this.#options.initialBackoffMs * 2 ** this.#attempt);
    return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  }

  #watchSilence(socket: WebSocket): void {
    clearTimeout(this.#silenceTimer);
    this.#silenceTimer = setTimeout(() => {
      this.#options.logger?.warn({ source: this.name }, 'price feed silent; reconnecting');
      socket.close();
      // A socket that never opened may not report close promptly; treat it as closed now.
      this.#onClose(socket);
    }, this.#options.silenceMs);
  }
}

/** "BTC/USDT" -> "BTCUSDT". */
export function exchangeSymbol(symbol: string): string {
  return symbol.replace('/', '').toUpperCase();
}

/** Complete bars (closed before `untilMs`) from a klines answer; malformed rows are left out. */
export function parseKlines(body: unknown, untilMs: number): HistoryBar[] {
  if (!Array.isArray(body)) throw new Error('klines: the answer is not a list');
  const bars: HistoryBar[] = [];
  for (const row of body) {
    if (!Array.isArray(row) || row.length < 8) continue;
    const [openTimeMs, open, high, low, close, volume, closeTimeMs, turnover] = row as unknown[];
    if (typeof openTimeMs !== 'number' || typeof closeTimeMs !== 'number' || closeTimeMs >= untilMs) continue;
    const texts = [open, high, low, close, volume, turnover];
    if (!texts.every((text) => typeof text === 'string' && DECIMAL.test(text))) continue;
    bars.push({
      openTimeMs,
      open: open as string,
      high: high as string,
      low: low as string,
      close: close as string,
      volume: volume as string,
      turnover: turnover as string,
    });
  }
  return bars.sort((a, b) => a.openTimeMs - b.openTimeMs);
}
