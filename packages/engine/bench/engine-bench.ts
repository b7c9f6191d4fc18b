// Engine benchmark (docs/product.md, Performance targets): one thread, mixed place / cancel / match with
// about 10,000 resting orders.
// A first pass generates the operations against a live engine (so cancels name real open orders and
// crossing orders really cross); a second, timed pass applies the same envelopes to a fresh engine. Both
// must end at the same state hash. Latency is measured per batch of operations and divided by the batch
// size, because timing a single sub-microsecond operation mostly measures the timer.
import { Engine } from '../src/index.ts';
import type { Command, Envelope } from '../src/index.ts';
import { Random } from '../test/simulation.ts';

type Figures = Record<string, number | string>;

export type EngineBenchOptions = {
  operations?: number;
  restingOrders?: number;
  batchSize?: number;
  seed?: number;
};

const BTC = 1;
const USDT = 2;
const MARKET = 1;
const USERS = 2_000;
const MID_TICKS = 3_000_000;

function setupCommands(): Command[] {
  const commands: Command[] = [
    { type: 'addCurrency', currencyId: BTC, code: 'BTC', scale: 8 },
    { type: 'addCurrency', currencyId: USDT, code: 'USDT', scale: 6 },
    {
      type: 'addMarket',
      marketId: MARKET,
      baseCurrencyId: BTC,
      quoteCurrencyId: USDT,
      tickSize: '0.01',
      lotSize: '0.001',
      minimumLots: 1,
      makerFeePpm: 1000,
      takerFeePpm: 2000,
    },
  ];
  for (let userId = 1; userId <= USERS; userId += 1) {
    commands.push({ type: 'deposit', userId, currencyId: BTC, amount: 10n ** 14n });
    commands.push({ type: 'deposit', userId, currencyId: USDT, amount: 10n ** 18n });
  }
  return commands;
}

const LIMIT = 0;
const MARKET_ORDER = 1;
const CANCEL = 2;

/** Operations as columns of numbers; `command(index)` builds the command object again. */
class RecordedOperations {
  private readonly kind: Uint8Array;
  private readonly buy: Uint8Array;
  private readonly owner: Float64Array;
  private readonly priceTicks: Float64Array;
  private readonly quantityLots: Float64Array;
  private readonly orderId: Float64Array;

  constructor(capacity: number) {
    this.kind = new Uint8Array(capacity);
    this.buy = new Uint8Array(capacity);
    this.owner = new Float64Array(capacity);
    this.priceTicks = new Float64Array(capacity);
    this.quantityLots = new Float64Array(capacity);
    this.orderId = new Float64Array(capacity);
  }

  record(index: number, command: Command): void {
    if (command.type === 'cancelOrder') {
      this.kind[index] = CANCEL;
      this.owner[index] = command.owner as number;
      this.orderId[index] = command.orderId;
      return;
    }
    if (command.type !== 'placeOrder') throw new Error(`cannot record ${command.type}`);
    this.kind[index] = command.kind === 'limit' ? LIMIT : MARKET_ORDER;
    this.buy[index] = command.side === 'buy' ? 1 : 0;
    this.owner[index] = command.owner as number;
    this.priceTicks[index] = command.priceTicks ?? 0;
    this.quantityLots[index] = command.quantityLots;
  }

  command(index: number): Command {
    const owner = this.owner[index] as number;
    const kind = this.kind[index];
    if (kind === CANCEL) return { type: 'cancelOrder', owner, orderId: this.orderId[index] as number };
    const side = this.buy[index] === 1 ? 'buy' : 'sell';
    const quantityLots = this.quantityLots[index] as number;
    if (kind === LIMIT) {
      return {
        type: 'placeOrder',
        owner,
        marketId: MARKET,
        side,
        kind: 'limit',
        priceTicks: this.priceTicks[index] as number,
        quantityLots,
      };
    }
    return side === 'buy'
      ? {
          type: 'placeOrder',
          owner,
          marketId: MARKET,
          side,
          kind: 'market',
          quantityLots,
          quoteAmountMax: MARKET_BUY_MAX,
        }
      : { type: 'placeOrder', owner, marketId: MARKET, side, kind: 'market', quantityLots };
  }
}

const MARKET_BUY_MAX = 10n ** 12n;

/** Generates the operation mix against a live engine, keeping the book near `restingOrders`. */
class Generator {
  readonly engine = Engine.create();
  readonly random: Random;
  /** The recorded operations, compactly (typed arrays live outside the JavaScript heap). */
  recorded = 0;
  readonly operations: RecordedOperations;
  private readonly open: number[] = [];
  private readonly openIndex = new Map<number, number>();
  private readonly owners = new Map<number, number>();
  private seq = 0;
  readonly mix = { place: 0, cancel: 0, cross: 0, market: 0 };
  trades = 0;
  events = 0;

  constructor(seed: number, capacity: number) {
    this.random = new Random(seed);
    this.operations = new RecordedOperations(capacity);
  }

  apply(command: Command, record: boolean): void {
    this.seq += 1;
    const envelope: Envelope = { seq: this.seq, timeMs: 1_700_000_000_000 + this.seq, command };
    if (record) this.operations.record(this.recorded++, command);
    const outcome = this.engine.apply(envelope);
    if (outcome.code !== 0) throw new Error(`benchmark command ${command.type} refused with ${outcome.code}`);
    if (record) this.events += outcome.events.length;
    for (const event of outcome.events) {
      if (event.type === 'orderRested') this.track(event.orderId, event.owner as number);
      else if (event.type === 'orderDone' || event.type === 'orderCancelled') this.untrack(event.orderId);
      else if (event.type === 'trade' && record) this.trades += 1;
    }
  }

  private track(orderId: number, owner: number): void {
    this.openIndex.set(orderId, this.open.length);
    this.open.push(orderId);
    this.owners.set(orderId, owner);
  }

  private untrack(orderId: number): void {
    const index = this.openIndex.get(orderId);
    if (index === undefined) return;
    const last = this.open.pop() as number;
    if (index < this.open.length) {
      this.open[index] = last;
      this.openIndex.set(last, index);
    }
    this.openIndex.delete(orderId);
    this.owners.delete(orderId);
  }

  get openCount(): number {
    return this.open.length;
  }

  /** A limit order that does not cross: bids below the best ask, asks above the best bid. */
  restingOrder(): Command {
    const best = this.engine.spot.bestPrices(MARKET) as { bidTicks: number; askTicks: number };
    const side = this.random.chance(0.5) ? 'buy' : 'sell';
    const depth = this.random.integer(1, 400);
    const priceTicks =
      side === 'buy'
        ? (best.askTicks > 0 ? best.askTicks : MID_TICKS + 1) - depth
        : (best.bidTicks > 0 ? best.bidTicks : MID_TICKS - 1) + depth;
    return {
      type: 'placeOrder',
      owner: this.random.integer(1, USERS),
      marketId: MARKET,
      side,
      kind: 'limit',
      priceTicks,
      quantityLots: this.random.integer(1, 20),
    };
  }

  /** An order that takes from the top of the book: mostly limits at or just through the touch, some market orders. */
  crossingOrder(): Command {
    const best = this.engine.spot.bestPrices(MARKET) as { bidTicks: number; askTicks: number };
    const side = this.random.chance(0.5) ? 'buy' : 'sell';
    const owner = this.random.integer(1, USERS);
    const quantityLots = this.random.integer(1, 30);
    if (this.random.chance(0.1)) {
      this.mix.market += 1;
      return {
        type: 'placeOrder',
        owner,
        marketId: MARKET,
        side,
        kind: 'market',
        quantityLots,
        ...(side === 'buy' ? { quoteAmountMax: MARKET_BUY_MAX } : {}),
      };
    }
    const priceTicks =
      side === 'buy'
        ? best.askTicks + this.random.integer(0, 2)
        : Math.max(1, best.bidTicks - this.random.integer(0, 2));
    return { type: 'placeOrder', owner, marketId: MARKET, side, kind: 'limit', priceTicks, quantityLots };
  }

  cancel(): Command {
    const orderId = this.open[this.random.integer(0, this.open.length - 1)] as number;
    return { type: 'cancelOrder', owner: this.owners.get(orderId) as number, orderId };
  }

  nextOperation(target: number): Command {
    // Steer the book towards the target size: below it rest more, above it cancel more.
    const roll = this.random.next();
    const restShare = this.open.length < target ? 0.5 : 0.36;
    if (roll < 0.15) {
      this.mix.cross += 1;
      return this.crossingOrder();
    }
    if (roll < 0.15 + restShare || this.open.length === 0) {
      this.mix.place += 1;
      return this.restingOrder();
    }
    this.mix.cancel += 1;
    return this.cancel();
  }
}

function percentile(sorted: Float64Array, fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] as number;
}

/** Pass 1: the operations, generated on a live engine that is dropped (and can be collected) before pass 2. */
function generate(seed: number, operations: number, restingOrders: number) {
  const generator = new Generator(seed, operations);
  for (const command of setupCommands()) generator.apply(command, false);
  while (generator.openCount < restingOrders) generator.apply(generator.restingOrder(), false);
  const startingPoint = generator.engine.snapshot();
  const firstSeq = generator.engine.lastSeq + 1;
  for (let index = 0; index < operations; index += 1)
    generator.apply(generator.nextOperation(restingOrders), true);
  const { mix, trades, events } = generator;
  return {
    startingPoint,
    firstSeq,
    expectedHash: generator.engine.stateHash(),
    mix,
    trades,
    events,
    recorded: generator.operations,
  };
}

export async function runEngineBench(options: EngineBenchOptions = {}): Promise<Figures> {
  const operations = options.operations ?? 1_000_000;
  const restingOrders = options.restingOrders ?? 10_000;
  const batchSize = options.batchSize ?? 100;

  // Pass 1 generates the operations on a live engine, so cancels name real open orders and crossing orders
  // really cross; it also warms the JIT on exactly this work. It records them compactly, off the heap. Pass 2,
  // the timed one, builds each command again (as a runner decoding a request would) and applies it to an
  // engine restored to the same starting point. Only pass 2 is measured, and both must end at one hash.
  const { startingPoint, firstSeq, expectedHash, mix, trades, events, recorded } = generate(
    options.seed ?? 12345,
    operations,
    restingOrders,
  );

  const engine = Engine.restore(startingPoint);
  const batches = Math.floor(operations / batchSize);
  const perOperationUs = new Float64Array(batches);
  let elapsedMs = 0;
  let index = 0;
  const applyNext = (): void => {
    const seq = firstSeq + index;
    engine.apply({ seq, timeMs: 1_700_000_000_000 + seq, command: recorded.command(index) });
    index += 1;
  };
  for (let batch = 0; batch < batches; batch += 1) {
    const batchStarted = performance.now();
    for (let count = 0; count < batchSize; count += 1) applyNext();
    const batchMs = performance.now() - batchStarted;
    elapsedMs += batchMs;
    perOperationUs[batch] = (batchMs * 1000) / batchSize;
  }
  const tailStarted = performance.now();
  while (index < operations) applyNext();
  elapsedMs += performance.now() - tailStarted;
  // Throughput per window of 100 batches as well: on a machine shared with other work, the median window
  // shows the engine's own speed, the whole run what this machine delivered at the time.
  const windowBatches = 100;
  const windowRates: number[] = [];
  for (let start = 0; start + windowBatches <= batches; start += windowBatches) {
    let windowUs = 0;
    for (let batch = start; batch < start + windowBatches; batch += 1)
      windowUs += perOperationUs[batch] as number;
    windowRates.push(Math.round(1_000_000 / (windowUs / windowBatches)));
  }
  windowRates.sort((a, b) => a - b);
  const hash = engine.stateHash();
  if (hash !== expectedHash) throw new Error('the timed run ended at a different state hash');
  perOperationUs.sort();

  const snapshotStarted = performance.now();
  const text = engine.snapshot();
  const snapshotMs = performance.now() - snapshotStarted;
  const restoreStarted = performance.now();
  const restored = Engine.restore(text);
  const restoreMs = performance.now() - restoreStarted;
  const hashStarted = performance.now();
  const restoredHash = restored.stateHash();
  const hashMs = performance.now() - hashStarted;
  if (restoredHash !== hash) throw new Error('the restored engine has a different state hash');
  const invariantsStarted = performance.now();
  restored.checkInvariants();
  const invariantsMs = performance.now() - invariantsStarted;

  return {
    operations,
    'mix (rest / cancel / cross incl. market)': `${pct(mix.place, operations)} / ${pct(mix.cancel, operations)} / ${pct(mix.cross, operations)} (${pct(mix.market, operations)} market)`,
    trades,
    'events per operation': round(events / operations, 2),
    'resting orders at end': engine.stats().openOrders ?? 0,
    'ops/s': Math.round(operations / (elapsedMs / 1000)),
    'ops/s, median window of 10,000 ops': windowRates[Math.floor(windowRates.length / 2)] ?? 0,
    'latency p50 (µs/op)': round(percentile(perOperationUs, 0.5), 3),
    'latency p99 (µs/op)': round(percentile(perOperationUs, 0.99), 3),
    'latency p99.9 (µs/op)': round(percentile(perOperationUs, 0.999), 3),
    'latency max (µs/op)': round(perOperationUs[perOperationUs.length - 1] ?? 0, 3),
    'latency batch size (ops)': batchSize,
    'snapshot (ms)': round(snapshotMs, 1),
    'snapshot size (bytes)': text.length,
    'restore incl. invariant check (ms)': round(restoreMs, 1),
    'state hash (ms)': round(hashMs, 1),
    'invariant check (ms)': round(invariantsMs, 1),
    'state hash': hash.slice(0, 16),
  };
}

function pct(part: number, whole: number): string {
  return `${Math.round((part / whole) * 100)} %`;
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

if (import.meta.main) {
  const operations = Number(process.argv[2] ?? 1_000_000);
  const figures = await runEngineBench({ operations });
  const width = Math.max(...Object.keys(figures).map((key) => key.length));
  console.log('engine: one thread, mixed place/cancel/match, 10,000 resting orders');
  for (const [key, value] of Object.entries(figures)) {
    console.log(
      `  ${key.padEnd(width)}  ${typeof value === 'number' ? value.toLocaleString('en-US') : value}`,
    );
  }
}
