// One child process of the fan-out benchmark: opens many WebSocket connections to the server's socket.io
// endpoint, subscribes each to one market channel, and turns every market_depth and market_detail message it
// receives during the measured window into a delivery latency against the publish time the parent reports.
// Latencies go back to the parent as a histogram (0.1 ms buckets), never as raw samples.
//
// Ten thousand clients share this machine's two cores with the server, so each client is a bare `ws`
// connection that speaks the protocol itself (Engine.IO 4 over WebSocket, socket.io 5 packets): it answers
// the open packet with a namespace connect, subscribes with an acknowledged `subscribe` event, answers
// pings, and reads of each market message only its event name and `seq` (the first bytes of the frame)
// instead of parsing the whole payload. Real clients, each on its own machine, parse every message; here a
// full socket.io client per connection would measure this machine's client processes rather than the
// server's delivery. The web app's own socket client is tested against the server in the end-to-end flows.
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

export type ParentMessage =
  | { type: 'connect'; url: string; clients: number; channel: string; concurrency: number }
  | { type: 'measure' }
  | { type: 'sent'; key: string; timeMs: number }
  | { type: 'finish' };

export type ChildMessage =
  | { type: 'connected'; connected: number; failed: number; durationMs: number }
  | {
      type: 'result';
      /** [bucket (0.1 ms), count] of every matched message. */
      histogram: [number, number][];
      received: number;
      matched: number;
      rssBytes: number;
      heapUsedBytes: number;
    };

export const BUCKET_MS = 0.1;
const BUCKETS = 200_000;

const now = () => performance.timeOrigin + performance.now();

const sockets: WebSocket[] = [];
const sentAt = new Map<string, number>();
/** Receipt times of messages whose publish time has not arrived yet, by key. */
const waiting = new Map<string, number[]>();
const histogram = new Uint32Array(BUCKETS);
let measuring = false;
let received = 0;
let matched = 0;

function record(latencyMs: number): void {
  matched++;
  histogram[Math.min(BUCKETS - 1, Math.max(0, Math.round(latencyMs / BUCKET_MS)))]! += 1;
}

function onMessage(event: string, seq: number): void {
  if (!measuring) return;
  const timeMs = now();
  received++;
  const key = `${event}:${seq}`;
  const sent = sentAt.get(key);
  if (sent !== undefined) {
    record(timeMs - sent);
    return;
  }
  const list = waiting.get(key);
  if (list === undefined) waiting.set(key, [timeMs]);
  else list.push(timeMs);
}

/** `42["market_depth",{"type":"market_depth","symbol":…,"seq":N` — the event and its number. */
const MARKET_MESSAGE = /^42\["(market_depth|market_detail)",\{[^]*?"seq":(\d+)/;
const HEAD_BYTES = 200;

function openClient(url: string, channel: string): Promise<boolean> {
  return new Promise((resolve) => {
    const address = `${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`;
    const socket = new WebSocket(address, {
      perMessageDeflate: false,
      handshakeTimeout: 20_000,
      // The server's frames are trusted here; checking every byte of every book is client work this
      // machine's shared cores would otherwise spend.
      skipUTF8Validation: true,
    });
    let settled = false;
    const settle = (ok: boolean) => {
      if (settled) return;
      settled = true;
      resolve(ok);
    };
    socket.on('message', (data: Buffer) => {
      const type = data[0];
      if (type === 0x34 /* 4: message */ && data[1] === 0x32 /* 2: event */) {
        const market = MARKET_MESSAGE.exec(data.toString('latin1', 0, Math.min(data.length, HEAD_BYTES)));
        if (market !== null) onMessage(market[1] as string, Number(market[2]));
        return;
      }
      const text = data.toString();
      if (text === '2')
        socket.send('3'); // ping, pong
      else if (text.startsWith('0'))
        socket.send('40'); // open: connect to the main namespace
      else if (text.startsWith('40')) socket.send(`420${JSON.stringify(['subscribe', { channel }])}`);
      else if (text.startsWith('430'))
        settle((JSON.parse(text.slice(3)) as [{ type?: string }])[0]?.type === 'ok');
      else if (text.startsWith('44')) settle(false); // connect refused
    });
    socket.once('error', () => settle(false));
    socket.once('close', () => settle(false));
    sockets.push(socket);
  });
}

async function connectAll(message: Extract<ParentMessage, { type: 'connect' }>): Promise<void> {
  const started = now();
  let connected = 0;
  let failed = 0;
  let next = 0;
  const worker = async () => {
    while (next < message.clients) {
      next++;
      if (await openClient(message.url, message.channel)) connected++;
      else failed++;
    }
  };
  await Promise.all(Array.from({ length: message.concurrency }, worker));
  send({ type: 'connected', connected, failed, durationMs: now() - started });
}

function finish(): void {
  measuring = false;
  const pairs: [number, number][] = [];
  histogram.forEach((count, bucket) => {
    if (count > 0) pairs.push([bucket, count]);
  });
  const memory = process.memoryUsage();
  send({
    type: 'result',
    histogram: pairs,
    received,
    matched,
    rssBytes: memory.rss,
    heapUsedBytes: memory.heapUsed,
  });
  for (const socket of sockets) socket.terminate();
  setTimeout(() => process.exit(0), 200).unref();
}

function send(message: ChildMessage): void {
  process.send?.(message);
}

process.on('message', (message: ParentMessage) => {
  switch (message.type) {
    case 'connect':
      void connectAll(message);
      return;
    case 'measure':
      measuring = true;
      return;
    case 'sent': {
      sentAt.set(message.key, message.timeMs);
      const list = waiting.get(message.key);
      if (list !== undefined) {
        for (const timeMs of list) record(timeMs - message.timeMs);
        waiting.delete(message.key);
      }
      return;
    }
    case 'finish':
      finish();
      return;
  }
});
