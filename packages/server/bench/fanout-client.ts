// One child process of the fan-out benchmark: opens many WebSocket connections to the server's socket.io
// endpoint, subscribes each to one market channel, and turns every market_depth and market_detail message it
// receives during the measured window into a delivery latency against the publish time the parent reports.
// Latencies go back to the parent as a histogram (0.1 ms buckets), never as raw samples.
//
// Ten thousand clients share this machine's two cores with the server, so each client is a plain TCP socket
// that speaks the protocols itself (the WebSocket upgrade and frames, Engine.IO 4, socket.io 5): it answers
// the open packet with a namespace connect, subscribes with an acknowledged `subscribe` event, answers
// pings, and reads of each market message only its event name and `seq` (the first bytes of the frame)
// instead of parsing the whole payload. Real clients, each on its own machine, parse every message; here a
// full socket.io client per connection would measure this machine's client processes rather than the
// server's delivery. The web app's own socket client is tested against the server in the end-to-end flows.
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

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

/** Handles one Engine.IO packet (a WebSocket text frame's payload) of a client; `reply` sends a packet back. */
function onPacket(
  data: Buffer,
  channel: string,
  reply: (text: string) => void,
  settle: (ok: boolean) => void,
): void {
  const type = data[0];
  if (type === 0x34 /* 4: message */ && data[1] === 0x32 /* 2: event */) {
    const market = MARKET_MESSAGE.exec(data.toString('latin1', 0, Math.min(data.length, HEAD_BYTES)));
    if (market !== null) onMessage(market[1] as string, Number(market[2]));
    return;
  }
  const text = data.toString();
  if (text === '2')
    reply('3'); // ping, pong
  else if (text.startsWith('0'))
    reply('40'); // open: connect to the main namespace
  else if (text.startsWith('40')) reply(`420${JSON.stringify(['subscribe', { channel }])}`);
  else if (text.startsWith('430'))
    settle((JSON.parse(text.slice(3)) as [{ type?: string }])[0]?.type === 'ok');
  else if (text.startsWith('44')) settle(false); // connect refused
}

/** A masked client text frame (RFC 6455 section 5.3) carrying `text`. */
function clientFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const length = payload.length;
  const headerLength = length < 126 ? 2 : 4;
  const frame = Buffer.allocUnsafe(headerLength + 4 + length);
  frame[0] = 0x81; // FIN, text
  if (length < 126) frame[1] = 0x80 | length;
  else {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(length, 2);
  }
  const mask = randomBytes(4);
  mask.copy(frame, headerLength);
  for (let index = 0; index < length; index++)
    frame[headerLength + 4 + index] = (payload[index] as number) ^ (mask[index & 3] as number);
  return frame;
}

/**
 * One client on a plain TCP socket that speaks the WebSocket protocol itself: the upgrade request, then the
 * server's unmasked frames read in place from the bytes received (a tick's three frames usually arrive in
 * one read), and masked frames for its own few packets. The `ws` library does the same with a stream, an
 * allocation and an event per frame; ten thousand of them in two processes took more of the two cores than
 * the server they measure.
 */
function openClient(url: string, channel: string): Promise<boolean> {
  return new Promise((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = connect({ host: hostname, port: Number(port), noDelay: true });
    let settled = false;
    const settle = (ok: boolean) => {
      if (settled) return;
      settled = true;
      resolve(ok);
    };
    const reply = (text: string) => socket.write(clientFrame(text));
    let upgraded = false;
    let pending: Buffer | null = null;
    socket.on('connect', () => {
      socket.write(
        `GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
          `Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\n` +
          'Sec-WebSocket-Version: 13\r\n\r\n',
      );
    });
    socket.on('data', (chunk: Buffer) => {
      let data = pending === null ? chunk : Buffer.concat([pending, chunk]);
      pending = null;
      if (!upgraded) {
        const end = data.indexOf('\r\n\r\n');
        if (end < 0) {
          pending = data;
          return;
        }
        if (!data.toString('latin1', 0, 12).startsWith('HTTP/1.1 101')) {
          settle(false);
          socket.destroy();
          return;
        }
        upgraded = true;
        data = data.subarray(end + 4);
      }
      let at = 0;
      while (data.length - at >= 2) {
        const opcode = (data[at] as number) & 0x0f;
        let length = (data[at + 1] as number) & 0x7f;
        let start = at + 2;
        if (length === 126) {
          if (data.length - at < 4) break;
          length = data.readUInt16BE(at + 2);
          start = at + 4;
        } else if (length === 127) {
          if (data.length - at < 10) break;
          length = Number(data.readBigUInt64BE(at + 2));
          start = at + 10;
        }
        if (data.length < start + length) break;
        const payload = data.subarray(start, start + length);
        at = start + length;
        if (opcode === 0x1) onPacket(payload, channel, reply, settle);
        else if (opcode === 0x8) {
          settle(false);
          socket.destroy();
          return;
        }
      }
      if (at < data.length) pending = Buffer.from(data.subarray(at));
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
  for (const socket of sockets) socket.destroy();
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
