// A seeded, deterministic simulation of the exchange: random users depositing, trading on three markets,
// cancelling, moving funds between wallets, withdrawing, repeating idempotent requests and sending garbage.
// The same seed always produces the same envelopes, so any failure replays exactly (TigerBeetle's
// deterministic simulation testing). Used by the simulation test and by bench/simulate.ts.
import { Engine } from '../src/index.ts';
import type { AccountOwner, Command, EngineCreateOptions, Envelope, Outcome, Wallet } from '../src/index.ts';

/** A small fast generator (mulberry32): 32 bits of state, good enough to drive a simulation. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let value = this.state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in min..max inclusive. */
  integer(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
}

const BTC = 1;
const ETH = 2;
const USDT = 3;
const CURRENCIES = [BTC, ETH, USDT] as const;
const WALLETS: Wallet[] = ['change', 'lever', 'micro', 'ico', 'miner', 'defi'];

type SimMarket = { marketId: number; base: number; quote: number; midTicks: number; maxLots: number };

/** Engine options for simulations: short idempotency limits, so eviction happens within a run. */
export const SIMULATION_ENGINE_OPTIONS: EngineCreateOptions = {
  idempotencyWindowMs: 60_000,
  idempotencyMaxKeys: 2_000,
  maxOpenOrdersPerOwner: 100,
};

export type SimulationStats = {
  commands: number;
  refused: number;
  duplicates: number;
  trades: number;
  ordersRested: number;
  ordersCancelled: number;
  codes: Record<number, number>;
};

export class Simulation {
  readonly random: Random;
  readonly userCount: number;
  private seq = 0;
  private timeMs = 1_700_000_000_000;
  private readonly genesis: Command[];
  private readonly markets: SimMarket[] = [
    { marketId: 1, base: BTC, quote: USDT, midTicks: 3_000_000, maxLots: 40 },
    { marketId: 2, base: ETH, quote: USDT, midTicks: 200_000, maxLots: 60 },
    { marketId: 3, base: ETH, quote: BTC, midTicks: 6_600, maxLots: 60 },
  ];
  private readonly openOrders: { orderId: number; owner: AccountOwner }[] = [];
  private readonly openOrderIndex = new Map<number, number>();
  private readonly pendingWithdrawals: number[] = [];
  private readonly keyed: { key: string; command: Command }[] = [];
  private keyCounter = 0;
  readonly stats: SimulationStats = {
    commands: 0,
    refused: 0,
    duplicates: 0,
    trades: 0,
    ordersRested: 0,
    ordersCancelled: 0,
    codes: {},
  };

  constructor(seed: number, userCount = 100) {
    this.random = new Random(seed);
    this.userCount = userCount;
    this.genesis = this.genesisCommands();
  }

  private genesisCommands(): Command[] {
    const commands: Command[] = [
      { type: 'addCurrency', currencyId: BTC, code: 'BTC', scale: 8 },
      { type: 'addCurrency', currencyId: ETH, code: 'ETH', scale: 8 },
      { type: 'addCurrency', currencyId: USDT, code: 'USDT', scale: 6 },
      market(1, BTC, USDT, '0.01', '0.001', 1000, 2000),
      market(2, ETH, USDT, '0.01', '0.01', 1000, 2000),
      market(3, ETH, BTC, '0.00001', '0.01', 500, 1500),
    ];
    for (const currencyId of CURRENCIES) {
      commands.push({
        type: 'systemFund',
        owner: 'marketMaker',
        currencyId,
        amount: 10n ** 15n,
        memo: 'genesis',
      });
    }
    return commands;
  }

  nextEnvelope(): Envelope {
    this.seq += 1;
    this.timeMs += this.random.integer(0, 40);
    const genesis = this.genesis[this.seq - 1];
    if (genesis !== undefined) return { seq: this.seq, timeMs: this.timeMs, command: genesis };
    const { command, idempotencyKey } = this.randomCommand();
    return idempotencyKey === undefined
      ? { seq: this.seq, timeMs: this.timeMs, command }
      : { seq: this.seq, timeMs: this.timeMs, command, idempotencyKey };
  }

  /** Learns open orders and pending withdrawals from what the engine reported. */
  observe(outcome: Outcome): void {
    const stats = this.stats;
    stats.commands += 1;
    stats.codes[outcome.code] = (stats.codes[outcome.code] ?? 0) + 1;
    if (outcome.code !== 0) stats.refused += 1;
    if (outcome.duplicate === true) stats.duplicates += 1;
    for (const event of outcome.events) {
      switch (event.type) {
        case 'orderRested':
          stats.ordersRested += 1;
          this.openOrderIndex.set(event.orderId, this.openOrders.length);
          this.openOrders.push({ orderId: event.orderId, owner: event.owner });
          break;
        case 'orderDone':
        case 'orderCancelled':
          if (event.type === 'orderCancelled') stats.ordersCancelled += 1;
          this.forgetOrder(event.orderId);
          break;
        case 'trade':
          stats.trades += 1;
          this.nudgeMid(event.marketId, event.priceTicks);
          break;
        case 'withdrawalRequested':
          this.pendingWithdrawals.push(event.withdrawalId);
          break;
        case 'withdrawalCompleted':
        case 'withdrawalRejected': {
          const index = this.pendingWithdrawals.indexOf(event.withdrawalId);
          if (index >= 0) this.pendingWithdrawals.splice(index, 1);
          break;
        }
        default:
          break;
      }
    }
  }

  private forgetOrder(orderId: number): void {
    const index = this.openOrderIndex.get(orderId);
    if (index === undefined) return;
    const last = this.openOrders.pop() as { orderId: number; owner: AccountOwner };
    if (index < this.openOrders.length) {
      this.openOrders[index] = last;
      this.openOrderIndex.set(last.orderId, index);
    }
    this.openOrderIndex.delete(orderId);
  }

  private nudgeMid(marketId: number, priceTicks: number): void {
    const simMarket = this.markets[marketId - 1] as SimMarket;
    simMarket.midTicks = Math.max(100, Math.round((simMarket.midTicks * 15 + priceTicks) / 16));
  }

  private user(): number {
    return this.random.integer(1, this.userCount);
  }

  private randomCommand(): { command: Command; idempotencyKey?: string } {
    const roll = this.random.next();
    let command: Command;
    if (roll < 0.42) command = this.limitOrder();
    else if (roll < 0.47) command = this.marketOrder();
    else if (roll < 0.7) command = this.cancel();
    else if (roll < 0.79) command = this.deposit();
    else if (roll < 0.84) command = this.transfer();
    else if (roll < 0.88) command = this.requestWithdrawal();
    else if (roll < 0.91) command = this.decideWithdrawal();
    else if (roll < 0.94) return this.repeat();
    else if (roll < 0.999) command = this.garbage();
    else
      command = {
        type: 'setMarketFees',
        marketId: this.random.integer(1, 3),
        makerFeePpm: this.random.integer(0, 3000),
        takerFeePpm: this.random.integer(0, 3000),
      };
    if (this.random.chance(0.2)) {
      this.keyCounter += 1;
      const key = `k${this.keyCounter}`;
      this.keyed.push({ key, command });
      if (this.keyed.length > 200) this.keyed.shift();
      return { command, idempotencyKey: key };
    }
    return { command };
  }

  private limitOrder(): Command {
    const simMarket = this.random.pick(this.markets);
    const side = this.random.chance(0.5) ? 'buy' : 'sell';
    // Prices within 1 % around the mid; about a fifth of orders cross the spread and trade.
    const spread = Math.max(1, Math.floor(simMarket.midTicks / 100));
    const offset = this.random.integer(-spread, spread);
    const priceTicks = Math.max(
      1,
      simMarket.midTicks +
        (side === 'buy' ? -Math.abs(offset) : Math.abs(offset)) +
        (this.random.chance(0.2) ? (side === 'buy' ? spread : -spread) : 0),
    );
    const owner: AccountOwner = this.random.chance(0.15) ? 'marketMaker' : this.user();
    return {
      type: 'placeOrder',
      owner,
      marketId: simMarket.marketId,
      side,
      kind: 'limit',
      priceTicks,
      quantityLots: this.random.integer(1, simMarket.maxLots),
      ...(this.random.chance(0.1) ? { clientOrderId: `c${this.seq}` } : {}),
    };
  }

  private marketOrder(): Command {
    const simMarket = this.random.pick(this.markets);
    const side = this.random.chance(0.5) ? 'buy' : 'sell';
    const command: Command = {
      type: 'placeOrder',
      owner: this.user(),
      marketId: simMarket.marketId,
      side,
      kind: 'market',
      quantityLots: this.random.integer(1, simMarket.maxLots),
    };
    if (side === 'buy' && this.random.chance(0.6))
      command.quoteAmountMax = BigInt(this.random.integer(1, 10 ** 9));
    return command;
  }

  private cancel(): Command {
    const known =
      this.openOrders.length > 0 && this.random.chance(0.9) ? this.random.pick(this.openOrders) : undefined;
    if (known === undefined)
      return { type: 'cancelOrder', owner: this.user(), orderId: this.random.integer(1, this.seq) };
    // Now and then the wrong owner tries, which must be refused.
    return {
      type: 'cancelOrder',
      owner: this.random.chance(0.05) ? this.user() : known.owner,
      orderId: known.orderId,
    };
  }

  private deposit(): Command {
    const currencyId = this.random.pick(CURRENCIES);
    const amount = currencyId === USDT ? 10 ** this.random.integer(6, 11) : 10 ** this.random.integer(5, 9);
    return {
      type: 'deposit',
      userId: this.user(),
      currencyId,
      amount: BigInt(amount * this.random.integer(1, 9)),
    };
  }

  private transfer(): Command {
    const fromWallet = this.random.chance(0.5) ? 'change' : this.random.pick(WALLETS);
    const toWallet = this.random.chance(0.5) ? 'change' : this.random.pick(WALLETS);
    const amount = BigInt(10 ** this.random.integer(3, 9));
    return {
      type: 'transfer',
      userId: this.user(),
      currencyId: this.random.pick(CURRENCIES),
      fromWallet,
      toWallet,
      amount,
    };
  }

  private requestWithdrawal(): Command {
    const amount = BigInt(10 ** this.random.integer(3, 9) * this.random.integer(1, 9));
    const feeAmount = amount / BigInt(this.random.integer(10, 1000));
    return {
      type: 'requestWithdrawal',
      userId: this.user(),
      currencyId: this.random.pick(CURRENCIES),
      amount,
      feeAmount,
    };
  }

  private decideWithdrawal(): Command {
    const withdrawalId =
      this.pendingWithdrawals.length > 0 && this.random.chance(0.95)
        ? this.random.pick(this.pendingWithdrawals)
        : this.random.integer(1, 1000);
    return this.random.chance(0.7)
      ? { type: 'completeWithdrawal', withdrawalId, memo: `payout ${withdrawalId}` }
      : { type: 'rejectWithdrawal', withdrawalId };
  }

  private repeat(): { command: Command; idempotencyKey?: string } {
    const previous = this.keyed.length > 0 ? this.random.pick(this.keyed) : undefined;
    return previous === undefined
      ? { command: this.deposit() }
      : { command: previous.command, idempotencyKey: previous.key };
  }

  /** Commands a careless or hostile client might send; each must be refused without any change. */
  private garbage(): Command {
    const candidates: unknown[] = [
      {
        type: 'placeOrder',
        owner: this.user(),
        marketId: 9,
        side: 'buy',
        kind: 'limit',
        priceTicks: 1,
        quantityLots: 1,
      },
      {
        type: 'placeOrder',
        owner: this.user(),
        marketId: 1,
        side: 'buy',
        kind: 'limit',
        priceTicks: -1,
        quantityLots: 1,
      },
      {
        type: 'placeOrder',
        owner: this.user(),
        marketId: 1,
        side: 'sell',
        kind: 'limit',
        priceTicks: 10,
        quantityLots: 0.5,
      },
      {
        type: 'placeOrder',
        owner: 'fees',
        marketId: 1,
        side: 'sell',
        kind: 'limit',
        priceTicks: 10,
        quantityLots: 1,
      },
      {
        type: 'placeOrder',
        owner: this.user(),
        marketId: 2,
        side: 'buy',
        kind: 'limit',
        priceTicks: 1_000_000_000,
        quantityLots: 1_000_000,
      },
      { type: 'deposit', userId: this.user(), currencyId: USDT, amount: -1n },
      { type: 'deposit', userId: -3, currencyId: USDT, amount: 1n },
      {
        type: 'transfer',
        userId: this.user(),
        currencyId: BTC,
        fromWallet: 'change',
        toWallet: 'change',
        amount: 1n,
      },
      { type: 'requestWithdrawal', userId: this.user(), currencyId: ETH, amount: 10n, feeAmount: 11n },
      { type: 'cancelOrder', owner: this.user(), orderId: 'one' },
      { type: 'addCurrency', currencyId: BTC, code: 'BTC', scale: 8 },
      { type: 'launch' },
    ];
    return this.random.pick(candidates) as Command;
  }
}

function market(
  marketId: number,
  base: number,
  quote: number,
  tickSize: string,
  lotSize: string,
  makerFeePpm: number,
  takerFeePpm: number,
): Command {
  return {
    type: 'addMarket',
    marketId,
    baseCurrencyId: base,
    quoteCurrencyId: quote,
    tickSize,
    lotSize,
    minimumLots: 1,
    makerFeePpm,
    takerFeePpm,
  };
}

export type SimulationRun = {
  engine: Engine;
  envelopes: Envelope[];
  stats: SimulationStats;
  /** Snapshot taken after `snapshotAt` envelopes, when asked for. */
  midSnapshot?: string;
};

/**
 * Runs `count` envelopes of the seeded simulation on a fresh engine. Checks every invariant every
 * `checkEvery` commands (and at the end), records the envelopes when asked, and snapshots mid-way.
 */
export function runSimulation(options: {
  seed: number;
  count: number;
  checkEvery?: number;
  record?: boolean;
  snapshotAt?: number;
  book?: 'fast' | 'reference';
}): SimulationRun {
  const engine = Engine.create({ ...SIMULATION_ENGINE_OPTIONS, book: options.book ?? 'fast' });
  const simulation = new Simulation(options.seed);
  const envelopes: Envelope[] = [];
  const checkEvery = options.checkEvery ?? 0;
  let midSnapshot: string | undefined;
  for (let index = 1; index <= options.count; index += 1) {
    const envelope = simulation.nextEnvelope();
    if (options.record === true) envelopes.push(envelope);
    simulation.observe(engine.apply(envelope));
    if (checkEvery > 0 && index % checkEvery === 0) engine.checkInvariants();
    if (index === options.snapshotAt) midSnapshot = engine.snapshot();
  }
  engine.checkInvariants();
  return {
    engine,
    envelopes,
    stats: simulation.stats,
    ...(midSnapshot === undefined ? {} : { midSnapshot }),
  };
}
