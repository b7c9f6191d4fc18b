// A test driver for the lever area: an engine with a clock that journals every envelope and checks every
// invariant after every command; two pairs quoted in USDT (scale 0, tick 1, lot 1: one lot at one tick is 1).
import { Engine, encodeEvents } from '../src/index.ts';
import type { Command, EngineEvent, Envelope, Outcome, SetLeverPairCommand } from '../src/index.ts';

export const BTC = 1;
export const USDT = 2;
export const ETH = 3;
export const BTC_USDT = 1;
export const ETH_USDT = 2;
export const DAY = 86_400_000;

export const PAIR: Omit<SetLeverPairCommand, 'type' | 'marketId'> = {
  enabled: true,
  lotsPerShare: 10,
  multiples: [5, 10, 20],
  minShare: 1,
  maxShare: 100,
  spreadPpm: 1_000,
  feePpm: 1_000,
  overnightPpm: 500,
  liquidationThresholdBp: 1_000,
  liquidationFeePpm: 0,
  exposureLimitLots: 1_000_000,
};

export class LeverDriver {
  engine = Engine.create();
  readonly envelopes: Envelope[] = [];
  readonly events: EngineEvent[] = [];
  /** Every outcome, as the codec writes it (code and events), in journal order. */
  readonly outcomes: string[] = [];
  seq = 0;
  timeMs = 20_000 * DAY + 1_000;
  checkEachCommand = true;

  apply(command: Command, advanceMs = 1): Outcome {
    this.seq += 1;
    this.timeMs += advanceMs;
    const envelope: Envelope = { seq: this.seq, timeMs: this.timeMs, command };
    this.envelopes.push(envelope);
    const outcome = this.engine.apply(envelope);
    if (this.checkEachCommand) this.engine.checkInvariants();
    this.events.push(...outcome.events);
    this.outcomes.push(`${outcome.code}:${encodeEvents(outcome.events)}`);
    return outcome;
  }

  ok(command: Command, advanceMs = 1): Outcome {
    const outcome = this.apply(command, advanceMs);
    if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
    return outcome;
  }

  /** Records one fresh price sample: with an empty book the mark is the sample's index price. */
  mark(marketId: number, priceTicks: number, advanceMs = 1): Outcome {
    return this.ok(
      {
        type: 'recordPriceSamples',
        maxAgeMs: 10_000,
        minSources: 1,
        headIntervalMs: 60_000,
        samples: [[marketId, [['test', priceTicks, this.timeMs + advanceMs]]]],
      },
      advanceMs,
    );
  }

  markOf(marketId: number): number {
    return this.engine.market.markPrice(marketId)?.markTicks as number;
  }

  lever(userId: number): { available: bigint; locked: bigint } {
    return this.balance(userId, 'lever');
  }

  balance(
    owner: number | 'house' | 'fees' | 'insurance',
    wallet: 'lever' | 'change' = 'lever',
  ): { available: bigint; locked: bigint } {
    const { available, locked } = this.engine.ledger.balance(owner, wallet, USDT);
    return { available, locked };
  }

  /** Deposits and moves `amount` to the user's lever wallet. */
  fund(userId: number, amount: bigint): void {
    this.ok({ type: 'deposit', userId, currencyId: USDT, amount });
    this.ok({ type: 'transfer', userId, currencyId: USDT, fromWallet: 'change', toWallet: 'lever', amount });
  }

  fundSystem(owner: 'house' | 'insurance', amount: bigint): void {
    this.ok({ type: 'systemFund', owner, wallet: 'lever', currencyId: USDT, amount });
  }
}

/** Two pairs (BTC/USDT, ETH/USDT) with lever rules, marks 1000 and 100, the house funded. */
export function leverSetUp(pair: Partial<typeof PAIR> = {}, house = 10_000_000n): LeverDriver {
  const driver = new LeverDriver();
  driver.ok({ type: 'addCurrency', currencyId: BTC, code: 'BTC', scale: 0 });
  driver.ok({ type: 'addCurrency', currencyId: USDT, code: 'USDT', scale: 0 });
  driver.ok({ type: 'addCurrency', currencyId: ETH, code: 'ETH', scale: 0 });
  for (const [marketId, base] of [
    [BTC_USDT, BTC],
    [ETH_USDT, ETH],
  ] as const)
    driver.ok({
      type: 'addMarket',
      marketId,
      baseCurrencyId: base,
      quoteCurrencyId: USDT,
      tickSize: '1',
      lotSize: '1',
      minimumLots: 1,
      makerFeePpm: 0,
      takerFeePpm: 0,
    });
  for (const marketId of [BTC_USDT, ETH_USDT])
    driver.ok({ type: 'setLeverPair', marketId, ...PAIR, ...pair });
  if (house > 0n) driver.fundSystem('house', house);
  driver.mark(BTC_USDT, 1_000);
  driver.mark(ETH_USDT, 100);
  return driver;
}
