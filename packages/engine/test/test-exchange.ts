import { Engine } from '../src/index.ts';
import type {
  AccountOwner,
  BookImplementation,
  Command,
  EngineCreateOptions,
  Outcome,
} from '../src/index.ts';

export const BOOKS: BookImplementation[] = ['fast', 'reference'];

/** Readable test market: both currencies have scale 0, tick 1 and lot 1, so one lot at one tick is 1. */
export const BASE = 1;
export const QUOTE = 2;
export const MARKET = 1;

/**
 * An engine with a sequence counter and a clock, checking every invariant after every command so a test
 * fails at the first command that breaks one.
 */
export class TestExchange {
  readonly engine: Engine;
  seq = 0;
  timeMs = 1_000_000;

  constructor(options: EngineCreateOptions = {}) {
    this.engine = Engine.create(options);
  }

  apply(command: Command, idempotencyKey?: string, advanceMs = 1): Outcome {
    this.seq += 1;
    this.timeMs += advanceMs;
    const outcome = this.engine.apply({
      seq: this.seq,
      timeMs: this.timeMs,
      command,
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    });
    this.engine.checkInvariants();
    return outcome;
  }

  /** Applies and insists on success. */
  ok(command: Command, idempotencyKey?: string): Outcome {
    const outcome = this.apply(command, idempotencyKey);
    if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
    return outcome;
  }

  /** BASE/QUOTE with scale 0 and fees as given. */
  setUpSimpleMarket(makerFeePpm = 0, takerFeePpm = 0, minimumLots = 1): this {
    this.ok({ type: 'addCurrency', currencyId: BASE, code: 'BASE', scale: 0 });
    this.ok({ type: 'addCurrency', currencyId: QUOTE, code: 'QUOTE', scale: 0 });
    this.ok({
      type: 'addMarket',
      marketId: MARKET,
      baseCurrencyId: BASE,
      quoteCurrencyId: QUOTE,
      tickSize: '1',
      lotSize: '1',
      minimumLots,
      makerFeePpm,
      takerFeePpm,
    });
    return this;
  }

  fund(userId: number, baseAmount: bigint, quoteAmount: bigint): this {
    if (baseAmount > 0n) this.ok({ type: 'deposit', userId, currencyId: BASE, amount: baseAmount });
    if (quoteAmount > 0n) this.ok({ type: 'deposit', userId, currencyId: QUOTE, amount: quoteAmount });
    return this;
  }

  limit(owner: AccountOwner, side: 'buy' | 'sell', priceTicks: number, quantityLots: number): Outcome {
    return this.apply({
      type: 'placeOrder',
      owner,
      marketId: MARKET,
      side,
      kind: 'limit',
      priceTicks,
      quantityLots,
    });
  }

  market(owner: AccountOwner, side: 'buy' | 'sell', quantityLots: number, quoteAmountMax?: bigint): Outcome {
    return this.apply({
      type: 'placeOrder',
      owner,
      marketId: MARKET,
      side,
      kind: 'market',
      quantityLots,
      ...(quoteAmountMax === undefined ? {} : { quoteAmountMax }),
    });
  }

  /** [available, locked] of the change wallet. */
  change(owner: AccountOwner, currencyId: number): [bigint, bigint] {
    const balance = this.engine.ledger.balance(owner, 'change', currencyId);
    return [balance.available, balance.locked];
  }
}

/** The state text without the envelope counters, to show a refused command changed nothing else. */
export function stateWithoutCounters(engine: Engine): string {
  const document = JSON.parse(engine.snapshot()) as Record<string, unknown>;
  delete document.lastSeq;
  delete document.timeMs;
  return JSON.stringify(document);
}
