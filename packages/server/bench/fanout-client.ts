// One child process of the fan-out benchmark: opens many socket.io clients (websocket transport only) to the
// server, subscribes each to one market channel, and turns every market_depth and market_detail message it
// receives during the measured window into a delivery latency against the publish time the parent reports.
// Latencies go back to the parent as a histogram (0.1 ms buckets), never as raw samples.
//
// Ten thousand clients share this machine's two cores with the server, so the clients decode only what the
// measurement needs: a small socket.io parser (below) reads the event name and `seq` of market messages
// without parsing their payload, drops `transaction` books unparsed, and decodes everything else (connect,
// acknowledgements) in full. Real clients, each on its own machine, parse every message; here a full parse of
// 300,000 messages a second would measure this machine's client processes rather than the server's delivery.
import { performance } from 'node:perf_hooks';
import type { Socket } from 'socket.io-client';
import { io } from 'socket.io-client';

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
const EVENTS = ['market_depth', 'market_detail'] as const;

const now = () => performance.timeOrigin + performance.now();

// ---------------------------------------------------------------- a lean socket.io parser (protocol 5)

interface Packet {
  type: number;
  nsp: string;
  data?: unknown;
  id?: number;
}

const EVENT = 2;
const MARKET_EVENT = /^2\["(market_depth|market_detail)",\{.*?"seq":(\d+)/s;

class LeanEncoder {
  encode(packet: Packet): string[] {
    const namespace = packet.nsp === '/' ? '' : `${packet.nsp},`;
    const id = packet.id === undefined ? '' : String(packet.id);
    const data = packet.data === undefined ? '' : JSON.stringify(packet.data);
    return [`${packet.type}${namespace}${id}${data}`];
  }
}

class LeanDecoder {
  #listeners: ((packet: Packet) => void)[] = [];

  on(event: string, listener: (packet: Packet) => void): this {
    if (event === 'decoded') this.#listeners.push(listener);
    return this;
  }

  off(event: string, listener: (packet: Packet) => void): this {
    if (event === 'decoded') this.#listeners = this.#listeners.filter((entry) => entry !== listener);
    return this;
  }

  add(text: unknown): void {
    if (typeof text !== 'string') throw new Error('binary packets are not expected');
    const packet = this.#decode(text);
    if (packet !== undefined) for (const listener of this.#listeners) listener(packet);
  }

  destroy(): void {
    this.#listeners = [];
  }

  #decode(text: string): Packet | undefined {
    if (text.startsWith('2["transaction"')) return undefined;
    const market = MARKET_EVENT.exec(text);
    if (market !== null) return { type: EVENT, nsp: '/', data: [market[1], { seq: Number(market[2]) }] };
    // Anything else, in full: type digit, optional namespace, optional ack id, optional JSON.
    const type = Number(text[0]);
    let index = 1;
    let nsp = '/';
    if (text[index] === '/') {
      const comma = text.indexOf(',', index);
      nsp = text.slice(index, comma < 0 ? text.length : comma);
      index = comma < 0 ? text.length : comma + 1;
    }
    let digits = '';
    while (index < text.length && text[index]! >= '0' && text[index]! <= '9') digits += text[index++];
    const packet: Packet = { type, nsp };
    if (digits !== '') packet.id = Number(digits);
    if (index < text.length) packet.data = JSON.parse(text.slice(index)) as unknown;
    return packet;
  }
}

const leanParser = { Encoder: LeanEncoder, Decoder: LeanDecoder };

const sockets: Socket[] = [];
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

function onMessage(event: string, payload: { seq?: unknown }): void {
  if (!measuring) return;
  const timeMs = now();
  received++;
  const key = `${event}:${String(payload?.seq)}`;
  const sent = sentAt.get(key);
  if (sent !== undefined) {
    record(timeMs - sent);
    return;
  }
  const list = waiting.get(key);
  if (list === undefined) waiting.set(key, [timeMs]);
  else list.push(timeMs);
}

function openClient(url: string, channel: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = io(url, {
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      timeout: 20_000,
      parser: leanParser,
    });
    for (const event of EVENTS) socket.on(event, (payload: { seq?: unknown }) => onMessage(event, payload));
    socket.once('connect_error', () => resolve(false));
    socket.once('connect', () => {
      socket.emit('subscribe', { channel }, (reply: { type?: string }) => resolve(reply?.type === 'ok'));
    });
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
  for (const socket of sockets) socket.disconnect();
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
