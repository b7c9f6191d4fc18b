// Fan-out benchmark (docs/product.md): 10,000 socket.io clients subscribed to one market receive depth and
// trade updates at 10 per second; how long from publish to delivery, and how much memory a client costs.
//
// The server is the real app on a fresh PGlite folder, listening on loopback. A driver makes one real trade
// through the engine every 100 ms on BTC/USDT, whose book holds ten levels a side, so the market-data feed
// publishes market_depth and market_detail at its coalescing rate of 10 per second each (and the spot feed
// its `transaction` book on the same channel). The clients run in child processes (socket.io-client,
// websocket transport only), so the server keeps a core. A message's latency is its receipt time in the
// child minus the time the server began publishing it; both read the wall clock at sub-millisecond
// resolution (performance.timeOrigin + performance.now()). The run is bounded: it gives up after 58 s.
//
// The database folder lives in memory (/dev/shm where there is one): every trade commits to the journal,
// and on a shared machine an fsync can stall the event loop for a second, which would measure the disk
// rather than the fan-out. The journal benchmark measures durable commits on disk.
//
// Run directly to print the figures: node packages/server/bench/fanout-bench.ts
import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Command } from '@fairex/engine';
import type { WebSocket } from 'ws';
import { WebSocketServer } from 'ws';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { ChildMessage, ParentMessage } from './fanout-client.ts';
import { describeMachineCpu, machineCpuWindow } from './machine-cpu.ts';
import { BUCKET_MS } from './fanout-client.ts';

type Figures = Record<string, number | string>;

export interface FanoutBenchOptions {
  clients?: number;
  children?: number;
  /** Trades per second, which is also the rate of depth and trade updates. */
  updatesPerSecond?: number;
  measureSeconds?: number;
  /** Connections each child opens at a time. */
  concurrency?: number;
}

const SYMBOL = 'BTC/USDT';
const CHANNEL = `market:${SYMBOL}`;
const MEASURED = new Set(['market_depth', 'market_detail']);
const SELLER = 1_000_001;
const BUYER = 1_000_002;
const TIME_LIMIT_MS = 58_000;

const now = () => performance.timeOrigin + performance.now();

/** A garbage collection, so memory figures compare live objects rather than collector timing. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  return () => gc?.();
}

/** What a measured server offers the clients: where to connect, and its updates started and stopped. */
interface FanoutServer {
  url: string;
  /** Starts the updates; `sent` is called with each measured update's key and the time its publish began. */
  start(sent: (key: string, timeMs: number) => void): { stop(): Promise<void> };
}

/** One event of the app's channel as published: replayed by the bare `ws` server. */
interface PublishedEvent {
  event: string;
  payload: Record<string, unknown>;
}

/**
 * The events the app published on the channel in one turn of its event loop (its fan-out writes them to
 * each subscriber as one buffer), and when, in milliseconds after its updates started.
 */
interface PublishedTurn {
  atMs: number;
  events: PublishedEvent[];
}

export async function runFanoutBench(options: FanoutBenchOptions = {}): Promise<Figures> {
  return (await runAppFanout(options)).figures;
}

/**
 * The fan-out beside the machine's floor, in one run (issue #24): the app at 10,000 clients, a bare `ws`
 * server replaying what the app published, at the same times, to as many of the same clients, and both
 * again at 5,000 clients.
 */
export async function runFanoutWithFloorBench(options: FanoutBenchOptions = {}): Promise<Figures> {
  const clients = options.clients ?? 10_000;
  const app = await runAppFanout({ ...options, clients });
  const floor = await runBareWsFanout(app.turns, { ...options, clients });
  const halfClients = Math.round(clients / 2);
  const half = await runAppFanout({ ...options, clients: halfClients });
  // The floor at half the clients too: whether p99 < 100 ms is within this machine's reach at all.
  const halfFloor = await runBareWsFanout(half.turns, { ...options, clients: halfClients });
  const figures: Figures = {};
  for (const [key, value] of Object.entries(app.figures)) figures[`app ${clients}: ${key}`] = value;
  for (const [key, value] of Object.entries(floor)) figures[`bare ws ${clients}: ${key}`] = value;
  const appP99 = Number(app.figures['delivery latency p99 (ms)']);
  const floorP99 = Number(floor['delivery latency p99 (ms)']);
  figures[`app ${clients} p99 / bare ws p99`] = round(appP99 / floorP99, 2);
  for (const [key, value] of Object.entries(half.figures)) figures[`app ${halfClients}: ${key}`] = value;
  for (const [key, value] of Object.entries(halfFloor)) figures[`bare ws ${halfClients}: ${key}`] = value;
  figures[`app ${halfClients} p99 / bare ws p99`] = round(
    Number(half.figures['delivery latency p99 (ms)']) / Number(halfFloor['delivery latency p99 (ms)']),
    2,
  );
  return figures;
}

async function runAppFanout(
  options: FanoutBenchOptions,
): Promise<{ figures: Figures; turns: PublishedTurn[] }> {
  const settings = { updatesPerSecond: 10, ...options };
  const dataDir = await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'fairex-fanout-'));
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, WEB_DIST: join(dataDir, 'no-web') });
  const app = await buildApp({ config, logger: false });
  // What the channel carried, turn by turn, for the bare server to replay.
  const turns: PublishedTurn[] = [];
  let turn: PublishedTurn | undefined;
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    await seedBook(app);
    const server: FanoutServer = {
      url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
      start(sent) {
        const startedMs = now();
        const publish = app.realtime.publish;
        app.realtime.publish = ((channel, event, payload) => {
          const timeMs = now();
          publish(channel, event, payload);
          if (channel !== CHANNEL) return;
          if (turn === undefined) {
            turn = { atMs: timeMs - startedMs, events: [] };
            turns.push(turn);
            setImmediate(() => (turn = undefined));
          }
          turn.events.push({ event, payload: payload as unknown as Record<string, unknown> });
          if (MEASURED.has(event)) sent(`${event}:${(payload as { seq: number }).seq}`, timeMs);
        }) as typeof publish;
        const driver = startDriver(app, settings.updatesPerSecond);
        return {
          stop: async () => {
            await driver.stop();
            app.realtime.publish = publish;
          },
        };
      },
    };
    const figures = await measureFanout(server, options);
    return { figures, turns };
  } finally {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The machine's floor: a bare `ws` server (no socket.io, no app) that speaks just enough Engine.IO and
 * socket.io for the same clients to connect and subscribe, and replays what the app published, turn by turn
 * at the same times (looping should it run longer): each event encoded once, sent to every client with
 * `ws`'s own send, a turn's events corked into one write per client as the app's fan-out writes them
 * (docs/operations.md, the fan-out benchmark, says why it replays rather than sending at a fixed rate).
 */
async function runBareWsFanout(turns: PublishedTurn[], options: FanoutBenchOptions): Promise<Figures> {
  const last = turns.at(-1);
  if (last === undefined) throw new Error('the app published nothing to replay on the bare server');
  // A replay longer than the recording starts it again a tick's length after its last turn.
  const spanMs = last.atMs + 100;
  const http = createServer();
  const wss = new WebSocketServer({ server: http, perMessageDeflate: false });
  const subscribed = new Set<WebSocket>();
  wss.on('connection', (socket) => {
    socket.send(
      '0{"sid":"bare","upgrades":[],"pingInterval":25000,"pingTimeout":60000,"maxPayload":1000000}',
    );
    socket.on('message', (data: Buffer) => {
      const text = data.toString();
      if (text === '40') socket.send('40{"sid":"bare"}');
      else if (text.startsWith('420')) {
        subscribed.add(socket);
        socket.send('430[{"type":"ok"}]');
      }
    });
    socket.on('close', () => subscribed.delete(socket));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  try {
    let seq = 1_000_000_000;
    const server: FanoutServer = {
      url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
      start(sent) {
        const startedMs = now();
        let index = 0;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const next = () => {
          const turn = turns[index % turns.length] as PublishedTurn;
          const dueMs = startedMs + Math.floor(index / turns.length) * spanMs + turn.atMs;
          timer = setTimeout(
            () => {
              const timeMs = now();
              const texts: string[] = [];
              for (const { event, payload } of turn.events) {
                if (!MEASURED.has(event)) {
                  texts.push(`42${JSON.stringify([event, payload])}`);
                  continue;
                }
                seq++;
                texts.push(`42${JSON.stringify([event, { ...payload, seq }])}`);
                sent(`${event}:${seq}`, timeMs);
              }
              for (const socket of subscribed) {
                const raw = (socket as unknown as { _socket: Socket })._socket;
                raw.cork();
                for (const text of texts) socket.send(text);
                raw.uncork();
              }
              index++;
              next();
            },
            Math.max(0, dueMs - now()),
          );
        };
        next();
        return { stop: async () => clearTimeout(timer) };
      },
    };
    return await measureFanout(server, options);
  } finally {
    for (const socket of wss.clients) socket.terminate();
    await new Promise((resolve) => wss.close(resolve));
    await new Promise((resolve) => http.close(resolve));
  }
}

/** Connects the clients (in child processes) to `server`, measures a window of its updates, and reports. */
async function measureFanout(server: FanoutServer, options: FanoutBenchOptions): Promise<Figures> {
  const settings = {
    clients: 10_000,
    children: 2,
    updatesPerSecond: 10,
    measureSeconds: 8,
    concurrency: 250,
    ...options,
  };
  const startedMs = Date.now();
  const remaining = () => TIME_LIMIT_MS - (Date.now() - startedMs);
  const gc = collector();
  const children: ChildProcess[] = [];
  try {
    const url = server.url;
    // Every publish on the measured channel is reported to the children with the time it began.
    let measuring = false;
    let published = 0;
    const sent = (key: string, timeMs: number) => {
      if (!measuring) return;
      published++;
      const message: ParentMessage = { type: 'sent', key, timeMs };
      for (const child of children) child.send(message);
    };

    gc();
    const before = process.memoryUsage();
    const perChild = Math.ceil(settings.clients / settings.children);
    const connectStarted = now();
    const connected = await Promise.all(
      Array.from({ length: settings.children }, (_, index) => {
        const clients = Math.min(perChild, settings.clients - index * perChild);
        const child = fork(new URL('./fanout-client.ts', import.meta.url), [], {
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        });
        children.push(child);
        child.send({
          type: 'connect',
          url,
          clients,
          channel: CHANNEL,
          concurrency: settings.concurrency,
        } satisfies ParentMessage);
        return nextMessage(child, 'connected', remaining());
      }),
    );
    const connectSeconds = (now() - connectStarted) / 1000;
    const connectedCount = connected.reduce((sum, message) => sum + message.connected, 0);
    const failedCount = connected.reduce((sum, message) => sum + message.failed, 0);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    gc();
    const after = process.memoryUsage();

    // Drive updates, measure a window, stop.
    const driver = server.start(sent);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    for (const child of children) child.send({ type: 'measure' } satisfies ParentMessage);
    measuring = true;
    const windowStarted = now();
    const cpuBefore = process.cpuUsage();
    const machineCpu = machineCpuWindow();
    await new Promise((resolve) =>
      setTimeout(resolve, Math.min(settings.measureSeconds * 1000, remaining() - 8_000)),
    );
    measuring = false;
    const cpu = process.cpuUsage(cpuBefore);
    const machine = machineCpu();
    const windowSeconds = (now() - windowStarted) / 1000;
    await driver.stop();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const results = await Promise.all(
      children.map((child) => {
        child.send({ type: 'finish' } satisfies ParentMessage);
        return nextMessage(child, 'result', remaining());
      }),
    );
    const histogram = new Map<number, number>();
    for (const result of results)
      for (const [bucket, count] of result.histogram)
        histogram.set(bucket, (histogram.get(bucket) ?? 0) + count);
    const matched = results.reduce((sum, result) => sum + result.matched, 0);
    const expected = published * connectedCount;
    const clientRss = results.reduce((sum, result) => sum + result.rssBytes, 0);
    return {
      clients: connectedCount,
      'clients failed to connect': failedCount,
      'connect time (s)': round(connectSeconds, 1),
      'updates published (depth + trades)': published,
      'updates per second': round(published / windowSeconds, 1),
      'deliveries expected': expected,
      'deliveries received': matched,
      'delivery latency p50 (ms)': round(percentile(histogram, matched, 0.5), 1),
      'delivery latency p99 (ms)': round(percentile(histogram, matched, 0.99), 1),
      'delivery latency max (ms)': round(percentile(histogram, matched, 1), 1),
      'p99 < 100 ms': percentile(histogram, matched, 0.99) < 100 && matched === expected ? 'yes' : 'NO',
      // All the server's work in the window (the spot feed's `transaction` books on the same channel, the
      // driver's trades and their journal commits included), per measured delivery.
      'server CPU in the window (% of one core)': round(
        ((cpu.user + cpu.system) / 1e6 / windowSeconds) * 100,
        0,
      ),
      // Server, clients and the kernel's loopback work together: near 100 % means no core was left.
      'machine CPU in the window': describeMachineCpu(machine),
      'server CPU per measured delivery (µs)': round((cpu.user + cpu.system) / Math.max(1, matched), 2),
      'server memory per client, rss (KB)': round((after.rss - before.rss) / connectedCount / 1024, 1),
      'server memory per client, heap (KB)': round(
        (after.heapUsed - before.heapUsed) / connectedCount / 1024,
        1,
      ),
      'client process memory per client, rss (KB)': round(clientRss / connectedCount / 1024, 1),
      'run time (s)': round((Date.now() - startedMs) / 1000, 1),
    };
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill();
  }
}

/** Ten resting levels on each side of BTC/USDT, and balances for the driver's trades. */
async function seedBook(app: Awaited<ReturnType<typeof buildApp>>): Promise<void> {
  const submit = async (command: Command) => {
    const outcome = await app.runner.submit(command);
    if (outcome.code !== 0) throw new Error(`${command.type} refused with code ${outcome.code}`);
  };
  await submit({ type: 'deposit', userId: SELLER, currencyId: 1, amount: 100_000n * 100_000_000n });
  await submit({ type: 'deposit', userId: BUYER, currencyId: 3, amount: 100_000_000_000n * 1_000_000n });
  for (let level = 0; level < 10; level++) {
    const order = { type: 'placeOrder', marketId: 1, kind: 'limit', quantityLots: 50 + level } as const;
    await submit({ ...order, owner: BUYER, side: 'buy', priceTicks: 6_600_000 - level * 1_000 });
    await submit({ ...order, owner: SELLER, side: 'sell', priceTicks: 6_800_000 + level * 1_000 });
  }
}

/** One trade per tick: an ask that rests between the levels, then a bid that takes it. */
function startDriver(
  app: Awaited<ReturnType<typeof buildApp>>,
  perSecond: number,
): { stop(): Promise<void> } {
  let tick = 0;
  const pending = new Set<Promise<unknown>>();
  const timer = setInterval(() => {
    const priceTicks = 6_700_000 + (tick++ % 20) * 500;
    const order = { type: 'placeOrder', marketId: 1, kind: 'limit', priceTicks, quantityLots: 3 } as const;
    const trade = app.runner
      .submit({ ...order, owner: SELLER, side: 'sell' })
      .then(() => app.runner.submit({ ...order, owner: BUYER, side: 'buy' }));
    pending.add(trade);
    void trade.finally(() => pending.delete(trade));
  }, 1000 / perSecond);
  return {
    stop: async () => {
      clearInterval(timer);
      await Promise.allSettled([...pending]);
    },
  };
}

function nextMessage<T extends ChildMessage['type']>(
  child: ChildProcess,
  type: T,
  timeoutMs: number,
): Promise<Extract<ChildMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`a client process sent no ${type} in time`)),
      Math.max(0, timeoutMs),
    );
    const onMessage = (message: ChildMessage) => {
      if (message.type !== type) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(message as Extract<ChildMessage, { type: T }>);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`a client process exited (${code}) before sending ${type}`));
    });
  });
}

/** The latency at quantile q (0..1) of the merged histogram, in milliseconds. */
function percentile(histogram: Map<number, number>, total: number, q: number): number {
  if (total === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const bucket of [...histogram.keys()].sort((a, b) => a - b)) {
    seen += histogram.get(bucket) ?? 0;
    if (seen >= rank) return bucket * BUCKET_MS;
  }
  return Number.NaN;
}

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const clients = Number(process.env.FANOUT_CLIENTS ?? 10_000);
  const figures =
    process.env.FANOUT_FLOOR === '1'
      ? await runFanoutWithFloorBench({ clients })
      : await runFanoutBench({ clients });
  for (const [key, value] of Object.entries(figures)) console.log(`${key.padEnd(44)} ${value}`);
}
