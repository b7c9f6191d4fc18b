// HTTP order-placement benchmark (docs/product.md): durable limit orders through the whole gateway -
// session authentication, input validation, the engine, the journal commit with its projections, the reply -
// measured from a load generator in a separate process over loopback, on PGlite and, when DATABASE_URL is
// set, on PostgreSQL. The same run measures a bare Fastify route (JSON body in, small JSON out) with the
// same load settings, and reports the ratio.
//
// Orders come from many pre-funded users in turn, at prices spread around a mid price so that most rest and
// some cross (trades, fees and releases happen too). Every answer is checked: only `type: "ok"` answers
// count as placed orders. Two loads run per database: the maximum rate (many connections, pipelined) and
// a latency-bounded load (fewer connections, no pipelining).
//
// Run directly to print a table: node packages/server/bench/http-orders-bench.ts
// With HTTP_BENCH_CPU_PROFILE=<folder>, the server's main thread is profiled during each measured load and
// the profiles written there (`<database>-max-rate.cpuprofile`, `<database>-bounded.cpuprofile`), for
// Chrome's DevTools or any .cpuprofile reader: where the CPU time per order goes.
// The load generator is this same file started with --load (autocannon's programmatic API in a child).
import { spawn } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import Fastify from 'fastify';
import pg from 'pg';
import { ReasonCode } from '@fairex/engine';
import { parseDecimal } from '@fairex/shared';
import { buildApp } from '../src/app.ts';
import { createSession } from '../src/auth/sessions.ts';
import { loadConfig } from '../src/config.ts';
import type { RunnerStats } from '../src/engine-runner/index.ts';
import { whenCaughtUp } from '../src/engine-runner/index.ts';
import type { OpenStoreOptions, Store } from '../src/store/index.ts';
import { openStore } from '../src/store/index.ts';
import type { CpuSplit } from './cpu-split.ts';
import { cpuSplitWindow, describeCpuSplit, postgresBackendPids } from './cpu-split.ts';
import type { MachineCpu } from './machine-cpu.ts';
import { describeMachineCpu, machineCpuWindow } from './machine-cpu.ts';

type Figures = Record<string, number | string>;

export interface HttpOrdersBenchOptions {
  /** Seconds of each measured load (default 6). */
  seconds?: number;
  /** Seconds of the unmeasured load before them, on each database (default 5). */
  warmupSeconds?: number;
  /** Pre-funded users placing orders in turn (default 2,000). */
  users?: number;
  /** Connections and pipelining depth of the maximum-rate load (default 64 x 8). */
  connections?: number;
  pipelining?: number;
  /** Connections of the latency-bounded load, one request in flight each (default 64). */
  boundedConnections?: number;
  /** Skip the bare route (profiling the order path alone). */
  skipBare?: boolean;
  /** Called around the maximum-rate load of each database (to profile that load alone). */
  aroundMaxLoad?: (edge: 'start' | 'end') => Promise<void>;
  /** Called around each measured load of each database (the CPU profiles of HTTP_BENCH_CPU_PROFILE). */
  aroundLoad?: (load: LoadName, edge: 'start' | 'end') => Promise<void>;
}

type LoadName = `${string}-${'max-rate' | 'bounded'}`;
type Hooks = 'aroundMaxLoad' | 'aroundLoad';

interface LoadSpec {
  url: string;
  path: string;
  connections: number;
  pipelining: number;
  seconds: number;
  /** Session tokens to spread the orders over; empty for the bare route. */
  tokens: string[];
}

interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  ok: number;
  refused: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The load generator's own CPU time over the run, in % of one core. */
  cpuPercent: number;
}

const BTC = 1;
const USDT = 3;
/** BTC/USDT: price scale 2, lot 0.0001. Orders of 0.001 BTC around 30,000 USDT, most resting, some crossing. */
const MID_PRICE_CENTS = 3_000_000;

/** Commands per committed batch or per projector transaction between two runner stats, rounded. */
function meanOf(after: RunnerStats, before: RunnerStats, stage: 'committed' | 'projected'): number {
  const batches = after[`${stage}Batches`] - before[`${stage}Batches`];
  return batches === 0 ? 0 : Math.round((after[`${stage}Commands`] - before[`${stage}Commands`]) / batches);
}

/** A commit's mean time between two runner stats, in ms to a tenth. */
function meanCommitMs(after: RunnerStats, before: RunnerStats): number {
  const batches = after.committedBatches - before.committedBatches;
  return batches === 0 ? 0 : Math.round((after.committedMs - before.committedMs) / batches / 0.1) / 10;
}

export async function runHttpOrdersBench(options: HttpOrdersBenchOptions = {}): Promise<Figures> {
  const settings = {
    seconds: 6,
    warmupSeconds: 5,
    users: 2_000,
    connections: 64,
    pipelining: 8,
    boundedConnections: 64,
    skipBare: false,
    ...options,
  };
  const figures: Figures = {};
  const profileFolder = process.env.HTTP_BENCH_CPU_PROFILE;
  if (profileFolder !== undefined && profileFolder !== '' && settings.aroundLoad === undefined) {
    settings.aroundLoad = cpuProfiler(profileFolder);
  }
  const bare = settings.skipBare
    ? { requestsPerSecond: Number.NaN, p99Ms: Number.NaN }
    : await benchBareRoute(settings, settings.connections, settings.pipelining);
  figures['bare fastify route requests/s'] = Math.round(bare.requestsPerSecond);
  figures['bare fastify route latency p99 ms'] = bare.p99Ms;
  if ('cpuPercent' in bare) {
    figures['bare fastify route load generator CPU (% of a core)'] = bare.cpuPercent;
    figures['bare fastify route machine CPU'] = describeMachineCpu(bare.machine);
  }
  // The same route under the bounded load (one request in flight per connection): that load's floor on this
  // machine. The target's ratio is to the route above; this one says how much of the gap is the load's own.
  const bareBounded = settings.skipBare
    ? { requestsPerSecond: Number.NaN, p50Ms: Number.NaN, p99Ms: Number.NaN }
    : await benchBareRoute(settings, settings.boundedConnections, 1);
  figures[`bare fastify route at ${settings.boundedConnections} conns requests/s`] = Math.round(
    bareBounded.requestsPerSecond,
  );
  figures[`bare fastify route at ${settings.boundedConnections} conns latency p50 / p99 ms`] =
    `${bareBounded.p50Ms} / ${bareBounded.p99Ms}`;

  const targets: { name: string; open: () => Promise<Database> }[] = [
    { name: 'pglite', open: pgliteDatabase },
  ];
  const url = process.env.DATABASE_URL;
  if (url) targets.push({ name: 'postgres', open: () => postgresDatabase(url) });
  for (const target of targets) {
    const result = await benchOrders(target.name, target.open, settings);
    const prefix = `${target.name}:`;
    figures[`${prefix} max-rate orders/s (ok answers)`] = Math.round(result.max.ok / settings.seconds);
    figures[`${prefix} max-rate latency p50 / p99 / max ms`] =
      `${result.max.p50Ms} / ${result.max.p99Ms} / ${result.max.maxMs}`;
    figures[`${prefix} max-rate refused / non-2xx / errors`] =
      `${result.max.refused} / ${result.max.non2xx} / ${result.max.errors + result.max.timeouts}`;
    figures[`${prefix} max-rate CPU, server / load generator (% of a core)`] =
      `${result.serverCpuPercent} / ${result.max.cpuPercent}`;
    // Server, load generator and the kernel's loopback work together: below 100 % some core had time left.
    figures[`${prefix} max-rate machine CPU`] = describeMachineCpu(result.machine);
    figures[`${prefix} ratio to the bare route`] = round3(
      result.max.ok / settings.seconds / bare.requestsPerSecond,
    );
    figures[`${prefix} max-rate CPU µs per order`] = describeCpuSplit(
      result.maxCpu,
      result.max.ok,
      result.databaseInMain,
    );
    figures[`${prefix} bounded (${settings.boundedConnections} conns) orders/s`] = Math.round(
      result.bounded.ok / settings.seconds,
    );
    figures[`${prefix} bounded latency p50 / p99 / max ms`] =
      `${result.bounded.p50Ms} / ${result.bounded.p99Ms} / ${result.bounded.maxMs}`;
    figures[`${prefix} bounded ratio to the bare route`] = round3(
      result.bounded.ok / settings.seconds / bare.requestsPerSecond,
    );
    figures[`${prefix} bounded ratio to the bare route at ${settings.boundedConnections} conns`] = round3(
      result.bounded.ok / settings.seconds / bareBounded.requestsPerSecond,
    );
    figures[`${prefix} bounded CPU µs per order`] = describeCpuSplit(
      result.boundedCpu,
      result.bounded.ok,
      result.databaseInMain,
    );
    figures[`${prefix} projector lag at the end of the max-rate load`] = result.projectorLag;
    // Item 4 of #24: a request whose token is cached neither hashes it nor asks the database.
    figures[`${prefix} max-rate session lookups: cache hits / expired / not cached`] = result.sessionLookups;
    // Requests still in flight when the load stops are journaled but their answers are not counted.
    figures[`${prefix} journaled orders / ok answers`] = `${result.journaled} / ${result.max.ok}`;
    figures[`${prefix} mean commit batch (commands) / commit time ms`] = result.meanBatch;
    figures[`${prefix} bounded mean commit batch / projector transaction (commands) / commit time ms`] =
      result.boundedBatches;
  }
  if (!url) figures['postgres'] = 'skipped: DATABASE_URL not set';
  const maxOk = Number(figures['pglite: max-rate orders/s (ok answers)']);
  figures['target'] = '>= 20,000 orders/s with p99 < 20 ms; ratio >= 0.4';
  figures['pglite meets the throughput target'] = maxOk >= 20_000 ? 'yes' : 'no';
  return figures;
}

/** CPU time of this process since `before`, in % of one core over the wall time since `startedMs`. */
function cpuPercent(before: NodeJS.CpuUsage, startedMs: number): number {
  const used = process.cpuUsage(before);
  return Math.round(((used.user + used.system) / 1000 / (performance.now() - startedMs)) * 100);
}

/** Profiles the main thread during each load, writing `<folder>/<load>.cpuprofile`. */
function cpuProfiler(folder: string): (load: LoadName, edge: 'start' | 'end') => Promise<void> {
  const session = new Session();
  session.connect();
  return async (load, edge) => {
    if (edge === 'start') {
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
      return;
    }
    const { profile } = await session.post('Profiler.stop');
    await writeFile(join(folder, `${load}.cpuprofile`), JSON.stringify(profile));
  };
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

// ---------------------------------------------------------------- the two servers

async function benchBareRoute(
  settings: Required<Omit<HttpOrdersBenchOptions, Hooks>>,
  connections: number,
  pipelining: number,
): Promise<LoadResult & { machine: MachineCpu | null }> {
  const app = Fastify({ logger: false });
  app.post('/bare', async () => ({ type: 'ok', message: 'ok' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    let machineCpu = machineCpuWindow();
    const result = await runLoad(
      {
        url: baseUrl(app),
        path: '/bare',
        connections,
        pipelining,
        seconds: settings.seconds,
        tokens: [],
      },
      () => (machineCpu = machineCpuWindow()),
    );
    return { ...result, machine: machineCpu() };
  } finally {
    await app.close();
  }
}

interface Database {
  options: OpenStoreOptions;
  cleanup: () => Promise<void>;
}

async function benchOrders(
  name: string,
  openDatabase: () => Promise<Database>,
  settings: Required<Omit<HttpOrdersBenchOptions, Hooks>> & Pick<HttpOrdersBenchOptions, Hooks>,
) {
  const database = await openDatabase();
  const store = await openStore(database.options);
  let app: FastifyInstance | undefined;
  try {
    app = await buildApp({
      config: loadConfig({
        LOG_LEVEL: 'silent',
        WEB_DIST: join(tmpdir(), 'fairex-no-web-dist'),
        // The market maker's own orders would share the engine and the journal with the measured ones.
        MARKET_MAKER: 'off',
        // JOURNAL_FSYNC=off measures PGlite without the durable log beside it, for the cost of the log.
        JOURNAL_FSYNC: process.env.JOURNAL_FSYNC === 'off' ? 'off' : 'on',
      }),
      store,
      logger: false,
    });
    await app.ready();
    const tokens = await fundedUsers(app, store, settings.users);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = baseUrl(app);
    const load = (connections: number, pipelining: number, seconds: number, onStarted?: () => void) =>
      runLoad({ url, path: '/api/transaction/in', connections, pipelining, seconds, tokens }, onStarted);
    // A warm-up lets the JIT and the caches settle; its figures are not reported. V8's compiler threads
    // (tiering up this thread's code and PGlite's WebAssembly) were still busy several seconds into the
    // measured loads after a warm-up of one second, at a fifth of a core: a server that has run for a while
    // no longer pays that.
    await load(settings.connections, settings.pipelining, settings.warmupSeconds);
    const before = await orderCount(store);
    const statsBefore = app.runner.stats();
    await settings.aroundMaxLoad?.('start');
    await settings.aroundLoad?.(`${name}-max-rate`, 'start');
    // PostgreSQL's backends serving this server's pool (none on PGlite, which has a thread of its own).
    const databasePids = store.kind === 'postgres' ? await postgresBackendPids(store, 4) : [];
    let maxCpuWindow = cpuSplitWindow(databasePids, store);
    // The projector's largest lag during the load, sampled every 100 ms.
    let mostLag: object = app.runner.stats();
    const lagSampler = setInterval(() => {
      const stats = app?.runner.stats();
      if (stats !== undefined && lagCommands(stats) > lagCommands(mostLag)) mostLag = stats;
    }, 100);
    const lookupsBefore = { ...app.sessions.lookups };
    const cpuBefore = process.cpuUsage();
    const loadStartedMs = performance.now();
    let machineCpu = machineCpuWindow();
    const max = await load(settings.connections, settings.pipelining, settings.seconds, () => {
      machineCpu = machineCpuWindow();
      maxCpuWindow = cpuSplitWindow(databasePids, store);
    });
    const maxCpu: CpuSplit = maxCpuWindow();
    clearInterval(lagSampler);
    const lookups = app.sessions.lookups;
    const sessionLookups =
      `${lookups.hits - lookupsBefore.hits} / ${lookups.expired - lookupsBefore.expired} / ` +
      `${lookups.misses - lookupsBefore.misses} (${settings.users} sessions)`;
    // The lag at the end counts as sampled too: the last 100 ms sample may be below it.
    const lagAtEnd = app.runner.stats();
    if (lagCommands(lagAtEnd) > lagCommands(mostLag)) mostLag = lagAtEnd;
    const projectorLag = `${describeProjectorLag(lagAtEnd)} at the end; most ${describeProjectorLag(mostLag)}`;
    const serverCpuPercent = cpuPercent(cpuBefore, loadStartedMs);
    const machine = machineCpu();
    await settings.aroundMaxLoad?.('end');
    await settings.aroundLoad?.(`${name}-max-rate`, 'end');
    const statsAfter = app.runner.stats();
    // Counted from the account log, which the projector writes behind the journal: once it has caught up.
    await whenCaughtUp(app.runner);
    const journaled = (await orderCount(store)) - before;
    let boundedCpuWindow = cpuSplitWindow(databasePids, store);
    await settings.aroundLoad?.(`${name}-bounded`, 'start');
    const bounded = await load(
      settings.boundedConnections,
      1,
      settings.seconds,
      () => (boundedCpuWindow = cpuSplitWindow(databasePids, store)),
    );
    const boundedCpu = boundedCpuWindow();
    await settings.aroundLoad?.(`${name}-bounded`, 'end');
    const statsBounded = app.runner.stats();
    const batches = statsAfter.committedBatches - statsBefore.committedBatches;
    return {
      databaseInMain: store.kind === 'pglite' && store.databaseThreadCpuMicros === undefined,
      max,
      maxCpu,
      projectorLag,
      sessionLookups,
      serverCpuPercent,
      machine,
      bounded,
      boundedCpu,
      journaled,
      meanBatch: `${
        batches === 0
          ? 0
          : Math.round((statsAfter.committedCommands - statsBefore.committedCommands) / batches)
      } / ${meanCommitMs(statsAfter, statsBefore)}`,
      // At 64 connections a batch is small, and what each batch costs (commit, projector transaction,
      // replica message, pushes) is paid by few orders.
      boundedBatches: `${meanOf(statsBounded, statsAfter, 'committed')} / ${meanOf(statsBounded, statsAfter, 'projected')} / ${meanCommitMs(statsBounded, statsAfter)}`,
    };
  } finally {
    await app?.close();
    await store.close();
    await database.cleanup();
  }
}

/**
 * The projector's lag behind the journal (commands committed but not yet projected, and the age of the
 * oldest), when the runner keeps projections behind the journal; before that, projections are written in
 * each batch's own transaction and never lag.
 */
function lagCommands(stats: object): number {
  const lag = (stats as { projectorLag?: { commands?: number } | number }).projectorLag;
  return typeof lag === 'number' ? lag : (lag?.commands ?? 0);
}

function describeProjectorLag(stats: object): string {
  const lag = (stats as { projectorLag?: { commands?: number; ms?: number } | number }).projectorLag;
  if (lag === undefined) return 'none (projections are written in the journal transaction)';
  if (typeof lag === 'number') return `${lag} commands`;
  return `${lag.commands ?? 'n/a'} commands, ${lag.ms ?? 'n/a'} ms`;
}

function baseUrl(app: FastifyInstance): string {
  const address = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${address.port}`;
}

/** Orders accepted by journaled commands: each holds its funds once (one orderHold row in the account log). */
async function orderCount(store: Store): Promise<number> {
  const { rows } = await store.query<{ count: bigint }>(
    'select count(*) as count from account_log where reason = $1',
    [ReasonCode.orderHold],
  );
  return Number(rows[0]?.count ?? 0);
}

/** Users with a live session each, funded through journaled deposits with plenty of both currencies. */
async function fundedUsers(app: FastifyInstance, store: Store, count: number): Promise<string[]> {
  const suffix = randomBytes(4).toString('hex');
  const { rows } = await store.query<{ id: number }>(
    `insert into users (account, email, password_hash, extension_code)
     select 'bench-' || n || '-' || $2 || '@example.com', 'bench-' || n || '-' || $2 || '@example.com',
            'not-a-real-hash', 'B' || $2 || n
       from generate_series(1, $1::int) as n
     returning id`,
    [count, suffix],
  );
  const tokens: string[] = [];
  const deposits: Promise<unknown>[] = [];
  for (const { id } of rows) {
    tokens.push((await createSession(store, { userId: id, ttlMs: 3_600_000 })).token);
    deposits.push(
      app.runner.submit({
        type: 'deposit',
        userId: id,
        currencyId: USDT,
        amount: parseDecimal('1000000', 6),
      }),
    );
    deposits.push(
      app.runner.submit({ type: 'deposit', userId: id, currencyId: BTC, amount: parseDecimal('100', 8) }),
    );
  }
  await Promise.all(deposits);
  return tokens;
}

async function pgliteDatabase(): Promise<Database> {
  const dataDir = await mkdtemp(join(tmpdir(), 'fairex-http-bench-'));
  // EMBEDDED_STORE_THREAD=off measures PGlite on the event loop, as it ran before it had a thread.
  const embeddedThread = process.env.EMBEDDED_STORE_THREAD !== 'off';
  return {
    options: { dataDir, embeddedThread },
    cleanup: () => rm(dataDir, { recursive: true, force: true }),
  };
}

async function postgresDatabase(databaseUrl: string): Promise<Database> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  return {
    options: { databaseUrl, dataDir: tmpdir(), schema, poolSize: 4 },
    cleanup: async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    },
  };
}

// ---------------------------------------------------------------- the load generator (child process)

/** The load generator's first line on standard output, before its result. */
const LOAD_STARTED = 'load started';

/**
 * Runs autocannon in a child process, so that the load generator has a core of its own. `onStarted` is
 * called when the load begins (after the child's own start-up), for windows that should cover the load only.
 */
async function runLoad(spec: LoadSpec, onStarted?: () => void): Promise<LoadResult> {
  const folder = await mkdtemp(join(tmpdir(), 'fairex-load-'));
  const specFile = join(folder, 'spec.json');
  await writeFile(specFile, JSON.stringify(spec));
  try {
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [import.meta.filename, '--load', specFile], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        // The child's first line says the load has begun; its last is the result.
        const newline = text.indexOf('\n');
        if (newline >= 0 && text.startsWith(LOAD_STARTED)) {
          text = text.slice(newline + 1);
          onStarted?.();
        }
      });
      child.once('error', reject);
      child.once('exit', (code) =>
        code === 0 ? resolve(text) : reject(new Error(`the load generator exited with ${code}`)),
      );
    });
    return JSON.parse(output) as LoadResult;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** An order body for the n-th request: users in turn, prices spread 1 % around the mid, buys and sells. */
function orderRequest(n: number, tokens: string[]): { path: string; token: string; body: string } {
  const token = tokens[n % tokens.length] as string;
  // A cheap deterministic spread: most orders rest a little away from the mid, about one in ten crosses.
  const offset = ((n * 7919) % 300) + 1;
  const buy = n % 2 === 0;
  const crosses = n % 10 === 0;
  const priceCents = buy
    ? MID_PRICE_CENTS + (crosses ? offset : -offset)
    : MID_PRICE_CENTS + (crosses ? -offset : offset);
  const price = `${Math.floor(priceCents / 100)}.${String(priceCents % 100).padStart(2, '0')}`;
  return {
    path: buy ? '/api/transaction/in' : '/api/transaction/out',
    token,
    body: `{"legal_id":${USDT},"currency_id":${BTC},"price":"${price}","num":"0.001","mode":2}`,
  };
}

async function loadGenerator(specFile: string): Promise<void> {
  const spec = JSON.parse(await readFile(specFile, 'utf8')) as LoadSpec;
  // autocannon leaves Nagle's algorithm on, which browsers do not (Chromium sets TCP_NODELAY on its
  // sockets). With pipelining, a request then waits in the client for the ACK of the
  // one before, and the server delays that ACK while the answer is still being committed: the load
  // measured the two kernels' timers as much as the server. Its sockets are made to send at once.
  const connect = net.connect;
  (net as { connect: unknown }).connect = (...args: unknown[]) => {
    const socket = (connect as (...a: unknown[]) => net.Socket)(...args);
    socket.setNoDelay(true);
    return socket;
  };
  const { default: autocannon } = await import('autocannon');
  let next = 0;
  let ok = 0;
  let refused = 0;
  const orders = spec.tokens.length > 0;
  const cpuBefore = process.cpuUsage();
  const startedMs = performance.now();
  process.stdout.write(`${LOAD_STARTED}\n`);
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    pipelining: spec.pipelining,
    duration: spec.seconds,
    requests: [
      {
        method: 'POST',
        path: spec.path,
        headers: { 'content-type': 'application/json' },
        body: '{"legal_id":3,"currency_id":1,"price":"30000","num":"0.001","mode":2}',
        setupRequest: (request: Record<string, unknown>) => {
          if (!orders) return request;
          const order = orderRequest(next++, spec.tokens);
          return {
            ...request,
            path: order.path,
            body: order.body,
            headers: { 'content-type': 'application/json', authorization: order.token },
          };
        },
        onResponse: (status: number, body: string) => {
          if (status === 200 && body.startsWith('{"type":"ok"')) ok++;
          else refused++;
        },
      },
    ],
  });
  const summary: LoadResult = {
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    ok,
    refused,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    cpuPercent: cpuPercent(cpuBefore, startedMs),
  };
  process.stdout.write(JSON.stringify(summary));
}

if (import.meta.main) {
  if (process.argv[2] === '--load') {
    await loadGenerator(process.argv[3] as string);
  } else {
    const figures = await runHttpOrdersBench();
    for (const [key, value] of Object.entries(figures)) console.log(`${key.padEnd(56)} ${value}`);
  }
}
