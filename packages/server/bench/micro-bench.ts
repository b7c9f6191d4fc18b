// Seconds-contract benchmark (docs/micro.md): 50,000 contracts on 10 pairs expiring in the same second.
//
// The exchange's runner with every area's projections (exchange-runner.ts) on PGlite (and PostgreSQL when
// DATABASE_URL is set), a clock the bench sets, and a socket.io server with one connected WebSocket client
// per user in a child process (micro-bench-client.ts). 500 funded users submit 50,000 orders of 5 s, all
// accepted within one second of command time (in groups of 2,000 at once, so they share batches); a sample
// of every pair opens them; then the first recordPriceSamples command after the expiry settles all of them
// in one command. Measured from submitting that command (the expiry's command time, as the bench's clock
// sees it): the engine's apply, the moment its batch is durably committed to the journal (the command's
// reply), the moment each settled order's `closed_microorder` arrives at its user's socket client (wall
// clock in the client process, parsed), and the moment the projections behind the journal (micro_results,
// the account log) hold the settlement. The round is repeated (MICRO_BENCH_RUNS, default 5) on the same
// store and the figures given per round and over all rounds; the proof call's latency follows.
//
// Run directly: node packages/server/bench/micro-bench.ts, or npm run bench -- micro
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { Engine } from '@fairex/engine';
import type { Command, Outcome } from '@fairex/engine';
import { createExchangeRunner } from '../src/exchange-runner.ts';
import type { MarketInfo } from '../src/market/market-catalog.ts';
import { startMicroPushes } from '../src/micro/pushes.ts';
import { microProof } from '../src/micro/service.ts';
import { userRoom } from '../src/realtime/index.ts';
import type { OpenStoreOptions } from '../src/store/index.ts';
import { openStore } from '../src/store/index.ts';
import { onEachStore, pgliteDatabase, postgresDatabase } from './journal-bench.ts';
import type { MicroClientReply, MicroClientRequest } from './micro-bench-client.ts';

type Figures = Record<string, number | string>;

const PAIRS = 10;
const ORDERS = 50_000;
const USERS = 500;
const GROUP = 2_000;
const USDT = 100;
const quietLogger = { info() {}, warn() {}, error() {} };

function setupCommands(): Command[] {
  const commands: Command[] = [{ type: 'addCurrency', currencyId: USDT, code: 'USDT', scale: 6 }];
  for (let pair = 1; pair <= PAIRS; pair++) {
    commands.push({ type: 'addCurrency', currencyId: pair, code: `C${pair}`, scale: 8 });
    commands.push({
      type: 'addMarket',
      marketId: pair,
      baseCurrencyId: pair,
      quoteCurrencyId: USDT,
      tickSize: '0.01',
      lotSize: '0.0001',
      minimumLots: 1,
      makerFeePpm: 0,
      takerFeePpm: 0,
    });
  }
  commands.push({ type: 'setMicroSeconds', options: [[5, 8_500]] });
  commands.push({
    type: 'setMicroCurrency',
    currencyId: USDT,
    feeBp: 100,
    minStake: 1_000_000n,
    maxStake: 1_000_000_000n,
    presets: [],
    maxOpenOrders: 1_000,
  });
  for (let pair = 1; pair <= PAIRS; pair++)
    commands.push({ type: 'setMicroExposureCap', marketId: pair, currencyId: USDT, exposureCap: 10n ** 15n });
  commands.push({
    type: 'systemFund',
    owner: 'house',
    wallet: 'micro',
    currencyId: USDT,
    amount: 10n ** 15n,
  });
  for (let user = 1; user <= USERS; user++) {
    commands.push({ type: 'deposit', userId: user, currencyId: USDT, amount: 10n ** 12n });
    commands.push({
      type: 'transfer',
      userId: user,
      currencyId: USDT,
      fromWallet: 'change',
      toWallet: 'micro',
      amount: 10n ** 12n,
    });
  }
  return commands;
}

function samples(second: number, timeMs: number): Command {
  const quotes: [number, [string, number, number][]][] = [];
  for (let pair = 1; pair <= PAIRS; pair++)
    quotes.push([pair, [['simulated', 6_700_000 + ((second * 31 + pair) % 7) - 3, timeMs]]]);
  return {
    type: 'recordPriceSamples',
    maxAgeMs: 10_000,
    minSources: 1,
    headIntervalMs: 60_000,
    samples: quotes,
  };
}

function percentile(sorted: readonly number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;
}

const wallNow = () => performance.timeOrigin + performance.now();

/** A socket.io server whose sockets join their user's room from the handshake, and the clients' process. */
async function socketClients(): Promise<{
  io: Server;
  collect(): Promise<number[]>;
  close(): Promise<void>;
}> {
  const http = createServer();
  const io = new Server(http, { serveClient: false });
  io.on('connection', (socket) => {
    const userId = Number((socket.handshake.auth as { userId?: unknown }).userId);
    void socket.join(userRoom(userId));
    socket.emit('joined');
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const child: ChildProcess = fork(new URL('./micro-bench-client.ts', import.meta.url), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting: ((message: MicroClientReply) => void)[] = [];
  let exited: Error | null = null;
  child.on('message', (message: MicroClientReply) => waiting.shift()?.(message));
  child.once('exit', (code) => (exited = new Error(`the bench clients exited with ${code}`)));
  const next = (type: MicroClientReply['type']) =>
    new Promise<MicroClientReply>((resolve, reject) => {
      if (exited !== null) reject(exited);
      waiting.push((message) =>
        message.type === type ? resolve(message) : reject(new Error(`expected ${type}`)),
      );
    });
  const request = (message: MicroClientRequest) => child.send(message);
  const users = Array.from({ length: USERS }, (_, index) => index + 1);
  const connected = next('connected');
  request({ type: 'connect', url, users });
  await connected;
  return {
    io,
    async collect() {
      const reply = next('collected');
      request({ type: 'collect' });
      const message = await reply;
      return message.type === 'collected' ? message.received : [];
    },
    async close() {
      request({ type: 'finish' });
      await new Promise<void>((resolve) =>
        child.exitCode === null ? child.once('exit', () => resolve()) : resolve(),
      );
      await new Promise<void>((resolve) => io.close(() => resolve()));
    },
  };
}

type Round = {
  applyMs: number;
  journalMs: number;
  committedMs: number;
  lastPushMs: number;
  projectedMs: number;
  pushes: number[];
};

async function measure(name: string, options: OpenStoreOptions): Promise<Figures> {
  const runs = Number(process.env.MICRO_BENCH_RUNS ?? 5);
  const store = await openStore(options);
  let now = 1_800_000_000_000;
  const runner = await createExchangeRunner({
    store,
    logger: quietLogger,
    snapshotEvery: Number.MAX_SAFE_INTEGER,
    snapshotOnClose: false,
    clock: () => now,
  });
  const clients = await socketClients();
  // Told first of each committed batch: when the journal holds the settling command.
  let watchSeq = -1;
  let journalAt = 0;
  const stopWatch = runner.onCommitted((batch) => {
    if (batch.firstSeq <= watchSeq && watchSeq <= batch.lastSeq) journalAt = performance.now();
  });
  const stopPushes = startMicroPushes({
    engine: runner.engine,
    realtime: {
      toUser: (userId, event, payload) =>
        (clients.io.to(userRoom(userId)).emit as (name: string, data: unknown) => boolean)(event, payload),
    },
    symbolOf: (marketId) => `C${marketId}/USDT`,
    onCommitted: (listener) => runner.onCommitted(listener),
    now: () => now,
  });
  try {
    for (const command of setupCommands()) {
      const outcome = await runner.submit(command);
      if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
    }
    const rounds: Round[] = [];
    let submitMs = 0;
    for (let run = 0; run < runs; run++) {
      // Acceptance: every order within the same second of command time.
      now = Math.floor(now / 1000) * 1000 + 10_000;
      const acceptedAt = now;
      const submitStart = performance.now();
      for (let first = 0; first < ORDERS; first += GROUP) {
        const group: Promise<Outcome>[] = [];
        for (let index = first; index < Math.min(ORDERS, first + GROUP); index++)
          group.push(
            runner.submit({
              type: 'submitMicroOrder',
              userId: 1 + (index % USERS),
              marketId: 1 + (index % PAIRS),
              currencyId: USDT,
              direction: index % 3 === 0 ? 2 : 1,
              seconds: 5,
              stake: 1_000_000n + BigInt(index % 1_000) * 10_000n,
            }) as Promise<Outcome>,
          );
        for (const outcome of await Promise.all(group))
          if (outcome.code !== 0) throw new Error(`order refused with ${outcome.code}`);
        now = Math.min(acceptedAt + 900, now + 15);
      }
      submitMs += performance.now() - submitStart;
      now = acceptedAt + 1_000;
      await runner.submit(samples(run * 3 + 1, now));
      now = acceptedAt + 4_990;
      await runner.submit(samples(run * 3 + 2, now));
      // Everything before the settlement is delivered and idle.
      await clients.collect();
      await new Promise((resolve) => setTimeout(resolve, 200));
      // The first command after every expiry settles all 50,000.
      now = acceptedAt + 6_000;
      const settleWall = wallNow();
      const settleStart = performance.now();
      watchSeq = runner.engine.lastSeq + 1;
      const pending = runner.submit(samples(run * 3 + 3, now));
      const applyMs = performance.now() - settleStart;
      const outcome = await pending;
      const committedMs = performance.now() - settleStart;
      const journalMs = journalAt - settleStart;
      const settled = outcome.events.filter((event) => event.type === 'microOrderSettled').length;
      if (settled !== ORDERS) throw new Error(`${settled} of ${ORDERS} settled`);
      let received: number[] = [];
      while (received.length < settled && performance.now() - settleStart < 60_000) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        received = received.concat(await clients.collect());
      }
      if (received.length !== settled) throw new Error(`${received.length} of ${settled} pushes arrived`);
      // The projections (micro_results, the account log) are written behind the journal.
      await runner.whenProjected(outcome.seq);
      const projectedMs = performance.now() - settleStart;
      const pushes = received.map((at) => at - settleWall).sort((a, b) => a - b);
      rounds.push({
        applyMs,
        journalMs,
        committedMs,
        lastPushMs: pushes[pushes.length - 1] ?? 0,
        projectedMs,
        pushes,
      });
    }
    const { rows } = await store.query<{ closed: string }>(
      'select count(*)::text as closed from micro_results',
    );
    const worst = (pick: (round: Round) => number) => Math.round(Math.max(...rounds.map(pick)));
    const each = (pick: (round: Round) => number) =>
      rounds.map((round) => Math.round(pick(round))).join(', ');
    const pooled = rounds.flatMap((round) => round.pushes).sort((a, b) => a - b);
    return {
      [`${name}: rounds (50,000 orders accepted in one second of command time, then settled)`]: runs,
      [`${name}: submit throughput (orders/s, durable)`]: Math.round((ORDERS * runs) / (submitMs / 1000)),
      [`${name}: settled rows in micro_results`]: Number(rows[0]?.closed ?? 0),
      [`${name}: settle command applied in the engine, each round (ms)`]: each((round) => round.applyMs),
      [`${name}: settle command's batch in the journal (committed listeners told), each round (ms)`]: each(
        (round) => round.journalMs,
      ),
      [`${name}: settle command durably committed and answered, each round (ms)`]: each(
        (round) => round.committedMs,
      ),
      [`${name}: last closed_microorder delivered to its socket client, each round (ms)`]: each(
        (round) => round.lastPushMs,
      ),
      [`${name}: its projections written behind the journal (micro_results, account log), each round (ms)`]:
        each((round) => round.projectedMs),
      [`${name}: all settled, committed and pushed, worst round (ms; target 1,000)`]: Math.max(
        worst((round) => round.committedMs),
        worst((round) => round.lastPushMs),
      ),
      [`${name}: closed_microorder delivered, all rounds, p50 (ms)`]: Math.round(percentile(pooled, 0.5)),
      [`${name}: closed_microorder delivered, all rounds, p99 (ms)`]: Math.round(percentile(pooled, 0.99)),
    };
  } finally {
    stopWatch();
    stopPushes();
    await clients.close();
    await runner.close();
    await store.close();
  }
}

const DAY_S = 86_400;

/**
 * The proof call over a long record: price_samples of one pair filled with SQL (generate_series) with `days`
 * of samples at one a second and a head every 60 samples (as the price-record bench fills them), 100,000
 * settled 5-second orders spread over that time in micro_orders and micro_results, then 1,000 proofs of
 * random orders through the function `GET /api/microtrade/proof?id=` calls (owner-scoped), p50 and p99.
 */
async function proofFigures(name: string, options: OpenStoreOptions, days: number): Promise<Figures> {
  const store = await openStore(options);
  try {
    const count = days * DAY_S;
    const orders = 100_000;
    const startMs = 1_732_579_200_000;
    const fillBegan = performance.now();
    // Hashes of 64 hex characters, cheap to make (the proof call reads them; nothing here checks them).
    const chunk = 2_000_000;
    for (let from = 1; from <= count; from += chunk) {
      await store.query(
        `insert into price_samples (market_id, seq, time_ms, source_time_ms, index_ticks, mark_ticks, sources, stale,
           prev_hash, hash)
         select 1, n, $1::bigint + n * 1000, $1::bigint + n * 1000, 6725010 + n % 997, 6725010 + n % 991,
                '[["simulated",' || (6725010 + n % 997) || ',' || ($1::bigint + n * 1000) || ']]', false,
                lpad(to_hex(n - 1), 64, 'a'), lpad(to_hex(n), 64, 'a')
           from generate_series($2::bigint, $3::bigint) as n`,
        [startMs, from, Math.min(count, from + chunk - 1)],
      );
    }
    await store.query(
      `insert into price_heads (market_id, seq, time_ms, hash)
       select market_id, seq, time_ms, hash from price_samples where market_id = 1 and seq % 60 = 1`,
    );
    // Order k is accepted half a second after sample s = k * step; it opens on s + 1 and ends on s + 6.
    const step = Math.floor((count - 120) / orders);
    await store.query(
      `insert into micro_orders (order_id, user_id, market_id, currency_id, direction, seconds, profit_ratio_bp,
         stake, fee, accepted_ms, expiry_ms, created_seq)
       select k, 1 + k % 500, 1, 100, 1 + k % 2, 5, 8500, 1000000, 10000,
              $1::bigint + (k * $2::bigint) * 1000 + 500, $1::bigint + (k * $2::bigint) * 1000 + 5500, k * $2::bigint
         from generate_series(1, $3::bigint) as k`,
      [startMs, step, orders],
    );
    await store.query(
      `insert into micro_results (order_id, user_id, currency_id, outcome, void_reason, max_sample_age_ms, stake,
         payout, fee_refund, rule_version, open_seq, end_seq, settled_seq, settled_ms)
       select o.order_id, o.user_id, o.currency_id,
              case when e.mark_ticks > s.mark_ticks then 'win' when e.mark_ticks < s.mark_ticks then 'loss'
                   else 'draw' end,
              null, 3000, o.stake, 0, 0, 'fairex-micro-v1', s.seq, e.seq, e.seq + 1, e.time_ms + 1000
         from micro_orders o
         join price_samples s on s.market_id = 1 and s.seq = o.created_seq + 1
         join price_samples e on e.market_id = 1 and e.seq = o.created_seq + 6`,
    );
    for (const table of ['price_samples', 'price_heads', 'micro_orders', 'micro_results'])
      await store.query(`analyze ${table}`);
    const fillS = (performance.now() - fillBegan) / 1000;
    const engine = Engine.create();
    let seq = 0;
    for (const command of setupCommands().slice(0, 3)) engine.apply({ seq: ++seq, timeMs: startMs, command });
    const market = { marketId: 1, symbol: 'C1/USDT' } as MarketInfo;
    const context = { engine, symbolOf: () => market.symbol, nowMs: startMs + count * 1000 };
    const latencies: number[] = [];
    let state = 12345;
    const reads = 1_000;
    for (let read = 0; read < reads; read++) {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      const orderId = 1 + (state % orders);
      const began = performance.now();
      const proof = await microProof(store, context, () => market, 1 + (orderId % 500), orderId);
      latencies.push(performance.now() - began);
      if (proof.proof === null || proof.open === null || proof.end === null)
        throw new Error(`no proof for order ${orderId}`);
    }
    latencies.sort((a, b) => a - b);
    const at = (share: number) => Math.round(percentile(latencies, share) * 100) / 100;
    return {
      [`${name}: proof, samples of the pair in the record (${days} days at one a second)`]: count,
      [`${name}: proof, settled orders over that time`]: orders,
      [`${name}: proof, seconds to fill the tables`]: Math.round(fillS),
      [`${name}: proof call p50 (ms)`]: at(0.5),
      [`${name}: proof call p99 (ms; target 50)`]: at(0.99),
    };
  } finally {
    await store.close();
  }
}

function proofDays(text: string | undefined, fallback: number): number {
  const days = Math.floor(Number(text));
  return Number.isFinite(days) && days >= 1 ? days : fallback;
}

/**
 * The settlement rounds on each store, then the proof call over a long record: PGlite holds
 * MICRO_BENCH_PROOF_DAYS (default 30) days of samples, PostgreSQL MICRO_BENCH_PG_PROOF_DAYS (default 365).
 * MICRO_BENCH_SKIP_SETTLE=1 or MICRO_BENCH_SKIP_PROOF=1 leaves a part out.
 */
export async function runMicroBench(): Promise<Figures> {
  const figures: Figures = {};
  if (process.env.MICRO_BENCH_SKIP_SETTLE !== '1')
    Object.assign(figures, await onEachStore('micro', measure));
  if (process.env.MICRO_BENCH_SKIP_PROOF === '1') return figures;
  const pglite = await pgliteDatabase('fairex-micro-proof-bench-');
  try {
    Object.assign(
      figures,
      await proofFigures('PGlite', pglite.options, proofDays(process.env.MICRO_BENCH_PROOF_DAYS, 30)),
    );
  } finally {
    await pglite.cleanup();
  }
  const url = process.env.DATABASE_URL;
  if (url !== undefined && url !== '') {
    const postgres = await postgresDatabase(url, 'micro_proof_bench');
    try {
      Object.assign(
        figures,
        await proofFigures(
          'PostgreSQL',
          postgres.options,
          proofDays(process.env.MICRO_BENCH_PG_PROOF_DAYS, 365),
        ),
      );
    } finally {
      await postgres.cleanup();
    }
  }
  return figures;
}

if (import.meta.main) {
  for (const [key, value] of Object.entries(await runMicroBench())) console.log(`${key}: ${value}`);
}
