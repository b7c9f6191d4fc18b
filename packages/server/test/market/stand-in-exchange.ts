// A stand-in for an exchange's public market-data servers, on loopback: a WebSocket endpoint that replays
// frames in the exchange's stream protocol to each connection and then drops it (as the real servers do
// after 24 hours or on a restart), and an HTTP endpoint answering kline requests. Tests point the price
// adapter at it instead of the internet.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

/** Frames of Binance's combined mini-ticker stream in its documented format, one per line. */
export const MINI_TICKER_FRAMES = readFileSync(
  new URL('./fixtures/binance-mini-ticker.jsonl', import.meta.url),
  'utf8',
)
  .split('\n')
  .filter((line) => line.length > 0);

export interface StandInOptions {
  /** Frames sent to connection number n (0-based); default MINI_TICKER_FRAMES for every connection. */
  framesFor?: (connection: number) => readonly string[];
  /** Milliseconds between frames (default 5). */
  frameIntervalMs?: number;
  /** Drop the connection after its last frame (default true); otherwise keep it open and silent. */
  drop?: boolean;
  /** Stamp each frame's event time (`E`) with the time it is sent, as a live exchange would (default false). */
  restamp?: boolean;
  /** Answers GET /api/v3/klines; receives the query parameters. */
  klines?: (query: URLSearchParams) => unknown;
}

export interface StandInExchange {
  streamUrl: string;
  restUrl: string;
  /** Request paths of every WebSocket connection, in order. */
  readonly connections: string[];
  /** Query strings of every klines request. */
  readonly klineRequests: URLSearchParams[];
  close(): Promise<void>;
}

export async function startStandInExchange(options: StandInOptions = {}): Promise<StandInExchange> {
  const connections: string[] = [];
  const klineRequests: URLSearchParams[] = [];
  const http = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    if (url.pathname !== '/api/v3/klines' || options.klines === undefined) {
      response.writeHead(404).end();
      return;
    }
    klineRequests.push(url.searchParams);
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(options.klines(url.searchParams)));
  });
  const wss = new WebSocketServer({ server: http });
  wss.on('connection', (socket, request) => {
    const index = connections.length;
    connections.push(request.url ?? '');
    const frames = options.framesFor?.(index) ?? MINI_TICKER_FRAMES;
    let next = 0;
    const timer = setInterval(() => {
      if (next < frames.length) {
        const frame = frames[next++] as string;
        socket.send(options.restamp ? frame.replace(/"E":\d+/, `"E":${Date.now()}`) : frame);
        return;
      }
      clearInterval(timer);
      // terminate() drops the TCP connection without a closing handshake, like a lost link.
      if (options.drop !== false) socket.terminate();
    }, options.frameIntervalMs ?? 5);
    socket.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    streamUrl: `ws://127.0.0.1:${port}`,
    restUrl: `http://127.0.0.1:${port}`,
    connections,
    klineRequests,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
