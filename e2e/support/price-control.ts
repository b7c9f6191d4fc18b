// A stand-in for an exchange's public market data that the test steers: the server's price adapter
// (PRICE_SOURCE=binance) connects to it on loopback, and it sends each symbol's current price as a mini
// ticker every 200 ms, stamped with the time it is sent; `setPrice` moves a symbol, so the next recorded
// sample (once a second) carries the new index and mark. History requests are answered with no bars.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface PriceControl {
  streamUrl: string;
  restUrl: string;
  /** "BTCUSDT" -> "67000.00". */
  setPrice(symbol: string, price: string): void;
  close(): Promise<void>;
}

export async function startPriceControl(initial: Record<string, string>): Promise<PriceControl> {
  const prices = new Map(Object.entries(initial));
  const http = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://price-control');
    if (url.pathname === '/api/v3/klines') {
      response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
      return;
    }
    response.writeHead(404).end();
  });
  const sockets = new Set<WebSocket>();
  const wss = new WebSocketServer({ server: http });
  wss.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const timer = setInterval(() => {
    const now = Date.now();
    for (const [symbol, price] of prices) {
      const frame = JSON.stringify({
        stream: `${symbol.toLowerCase()}@miniTicker`,
        data: {
          e: '24hrMiniTicker',
          E: now,
          s: symbol,
          c: price,
          o: price,
          h: price,
          l: price,
          v: '1',
          q: price,
        },
      });
      for (const socket of sockets) socket.send(frame);
    }
  }, 200);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    streamUrl: `ws://127.0.0.1:${port}`,
    restUrl: `http://127.0.0.1:${port}`,
    setPrice: (symbol, price) => prices.set(symbol, price),
    close: async () => {
      clearInterval(timer);
      for (const socket of sockets) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
