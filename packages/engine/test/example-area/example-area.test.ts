// The example area (area.ts, tests only) installed through the same list as the product's areas: its
// commands, its snapshot section, a hold with an expiry voided on command time, its invariants, its
// reserved-funds rule, its price hook and its codec fields.
import { describe, expect, it } from 'vitest';
import { AREAS, BIGINT_FIELDS, Engine, EngineInvariantError, ResultCode, codecFor } from '../../src/index.ts';
import type { Command, Envelope, Outcome } from '../../src/index.ts';
import { EscrowResultCode, escrowArea } from './area.ts';
import type { EscrowCommand } from './area.ts';

const WITH_ESCROW = [...AREAS, escrowArea] as const;
const USDT = 1;
const MARKET = 1;

/** An engine with the example area, a clock and a sequence counter; invariants checked after every envelope. */
class Exchange {
  readonly engine: Engine;
  seq = 0;
  timeMs = 1_000_000;

  constructor(engine = Engine.create({ areas: WITH_ESCROW })) {
    this.engine = engine;
    this.seq = engine.lastSeq;
    this.timeMs = Math.max(this.timeMs, engine.timeMs);
  }

  apply(command: Command | EscrowCommand, advanceMs = 1): Outcome {
    this.seq += 1;
    this.timeMs += advanceMs;
    const envelope = { seq: this.seq, timeMs: this.timeMs, command } as Envelope;
    const outcome = this.engine.apply(envelope);
    this.engine.checkInvariants();
    return outcome;
  }

  ok(command: Command | EscrowCommand, advanceMs = 1): Outcome {
    const outcome = this.apply(command, advanceMs);
    if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
    return outcome;
  }

  get escrow() {
    return this.engine.queries(escrowArea);
  }
}

function funded(): Exchange {
  const exchange = new Exchange();
  exchange.ok({ type: 'addCurrency', currencyId: USDT, code: 'USDT', scale: 0 });
  exchange.ok({ type: 'addCurrency', currencyId: 2, code: 'BTC', scale: 0 });
  exchange.ok({
    type: 'addMarket',
    marketId: MARKET,
    baseCurrencyId: 2,
    quoteCurrencyId: USDT,
    tickSize: '1',
    lotSize: '1',
    minimumLots: 1,
    makerFeePpm: 0,
    takerFeePpm: 0,
  });
  exchange.ok({ type: 'deposit', userId: 1, currencyId: USDT, amount: 1_000n });
  return exchange;
}

describe('an area added through the area list', () => {
  it('applies its commands, holds through the ledger and posts a hold to another user', () => {
    const exchange = funded();
    const opened = exchange.ok({
      type: 'openBox',
      userId: 1,
      currencyId: USDT,
      boxAmount: 300n,
      forMs: 60_000,
    });
    expect(opened.reply).toEqual({ boxId: 1, expiresAtMs: exchange.timeMs + 60_000 });
    expect(opened.events.map((event) => event.type)).toEqual(['balanceChanged', 'boxOpened']);
    expect(exchange.engine.ledger.balance(1, 'change', USDT)).toEqual({ available: 700n, locked: 300n });
    expect(exchange.engine.ledger.holds(1)).toEqual([
      {
        area: 'escrow',
        ref: 1,
        owner: 1,
        wallet: 'change',
        currencyId: USDT,
        amount: 300n,
        reason: 900,
        expiresAtMs: exchange.timeMs + 60_000,
      },
    ]);

    expect(exchange.apply({ type: 'releaseBox', userId: 2, boxId: 1, toUserId: 2 }).code).toBe(
      EscrowResultCode.notBoxOwner,
    );
    exchange.ok({ type: 'releaseBox', userId: 1, boxId: 1, toUserId: 2 });
    expect(exchange.engine.ledger.balance(1, 'change', USDT)).toEqual({ available: 700n, locked: 0n });
    expect(exchange.engine.ledger.balance(2, 'change', USDT)).toEqual({ available: 300n, locked: 0n });
    expect(exchange.escrow.box(1)).toBeUndefined();
    expect(exchange.apply({ type: 'releaseBox', userId: 1, boxId: 1, toUserId: 2 }).code).toBe(
      EscrowResultCode.boxNotFound,
    );
  });

  it('voids an expired hold on command time, before a command that is then refused', () => {
    const exchange = funded();
    exchange.ok({ type: 'openBox', userId: 1, currencyId: USDT, boxAmount: 300n, forMs: 1_000 });
    // Not yet: one millisecond before the expiry nothing happens.
    const early = exchange.apply({ type: 'deposit', userId: 1, currencyId: USDT, amount: 0n }, 999);
    expect(early).toEqual({ seq: exchange.seq, code: ResultCode.invalidAmount, events: [] });
    // The envelope whose time reaches the expiry voids the hold first; its own command is refused.
    const before = exchange.engine.snapshot();
    const refused = exchange.apply({ type: 'deposit', userId: 1, currencyId: USDT, amount: 0n }, 1);
    expect(refused.code).toBe(ResultCode.invalidAmount);
    expect(refused.timeEvents).toBe(3);
    expect(refused.events).toMatchObject([
      { type: 'holdExpired', area: 'escrow', ref: 1, owner: 1, currencyId: USDT, amount: 300n },
      { type: 'balanceChanged', reason: 1, referenceId: 1, availableAfter: 1_000n, lockedAfter: 0n },
      { type: 'boxExpired', boxId: 1, userId: 1, boxAmount: 300n },
    ]);
    expect(exchange.engine.snapshot()).not.toBe(before);
    expect(exchange.engine.ledger.balance(1, 'change', USDT)).toEqual({ available: 1_000n, locked: 0n });
    expect(exchange.escrow.box(1)).toBeUndefined();
    // An accepted command after the hook's events: they lead, the command's follow.
    exchange.ok({ type: 'openBox', userId: 1, currencyId: USDT, boxAmount: 10n, forMs: 5 });
    const accepted = exchange.ok({ type: 'deposit', userId: 1, currencyId: USDT, amount: 5n }, 10);
    expect(accepted.timeEvents).toBe(3);
    expect(accepted.events.map((event) => event.type)).toEqual([
      'holdExpired',
      'balanceChanged',
      'boxExpired',
      'balanceChanged',
      'balanceChanged',
    ]);
  });

  it('writes its snapshot section only when it has something, and restores to the same state hash', () => {
    const plain = Engine.create();
    const withEscrow = Engine.create({ areas: WITH_ESCROW });
    const genesis: Command = { type: 'addCurrency', currencyId: USDT, code: 'USDT', scale: 0 };
    plain.apply({ seq: 1, timeMs: 1, command: genesis });
    withEscrow.apply({ seq: 1, timeMs: 1, command: genesis });
    // Installed but unused, the area changes neither the snapshot text nor the state hash.
    expect(withEscrow.snapshot()).toBe(plain.snapshot());

    const exchange = funded();
    exchange.ok({ type: 'openBox', userId: 1, currencyId: USDT, boxAmount: 300n, forMs: 60_000 });
    exchange.ok({ type: 'setReserve', userId: 1, currencyId: USDT, reserveAmount: 100n });
    exchange.ok({ type: 'recordIndexPrice', marketId: MARKET, priceTicks: 65_000 });
    const document = JSON.parse(exchange.engine.snapshot()) as Record<string, unknown>;
    expect(Object.keys(document).slice(-3)).toEqual(['indexPrices', 'escrow', 'holds']);
    expect(document.escrow).toEqual({
      boxes: [[1, 1, USDT, exchange.timeMs - 2 + 60_000]],
      reserves: [[expect.any(Number), '100']],
      lastPrices: [[MARKET, 65_000]],
    });
    // The escrow hold is in the holds section (no area rebuilds it); spot and funding holds never are.
    expect(document.holds).toEqual([
      ['escrow', 1, 1, 'change', USDT, '300', 900, exchange.timeMs - 2 + 60_000],
    ]);
    expect((document.counters as Record<string, number>).nextBoxId).toBe(2);

    const restored = Engine.restore(exchange.engine.snapshot(), { areas: WITH_ESCROW });
    expect(restored.stateHash()).toBe(exchange.engine.stateHash());
    // The restored hold still expires on time.
    const again = new Exchange(restored);
    const outcome = again.apply({ type: 'deposit', userId: 1, currencyId: USDT, amount: 1n }, 60_000);
    expect(outcome.events[0]).toMatchObject({ type: 'holdExpired', area: 'escrow', ref: 1, amount: 300n });
    expect(restored.ledger.balance(1, 'change', USDT)).toEqual({ available: 1_001n, locked: 0n });
    // A snapshot with the area's section does not load into an engine without the area.
    expect(() => Engine.restore(exchange.engine.snapshot())).toThrow(
      /section escrow belongs to no installed area/,
    );
  });

  it('keeps funds its reserved-funds rule names from leaving the wallet', () => {
    const exchange = funded();
    exchange.ok({ type: 'setReserve', userId: 1, currencyId: USDT, reserveAmount: 400n });
    const transfer = {
      type: 'transfer',
      userId: 1,
      currencyId: USDT,
      fromWallet: 'change',
      toWallet: 'lever',
    };
    expect(exchange.apply({ ...transfer, amount: 601n } as Command).code).toBe(ResultCode.insufficientFunds);
    expect(
      exchange.apply({ type: 'requestWithdrawal', userId: 1, currencyId: USDT, amount: 601n, feeAmount: 1n })
        .code,
    ).toBe(ResultCode.insufficientFunds);
    exchange.ok({ ...transfer, amount: 600n } as Command);
  });

  it('hears every recorded price through its price hook', () => {
    const exchange = funded();
    exchange.ok({ type: 'recordIndexPrice', marketId: MARKET, priceTicks: 64_000 });
    expect(exchange.escrow.lastPrice(MARKET)).toBe(64_000);
    exchange.ok({
      type: 'recordPriceSamples',
      maxAgeMs: 10_000,
      minSources: 1,
      headIntervalMs: 60_000,
      samples: [[MARKET, [['a', 65_000, exchange.timeMs]]]],
    });
    expect(exchange.escrow.lastPrice(MARKET)).toBe(65_000);
  });

  it('has its invariants checked with the ledger', () => {
    const exchange = funded();
    exchange.ok({ type: 'openBox', userId: 1, currencyId: USDT, boxAmount: 300n, forMs: 60_000 });
    const text = exchange.engine.snapshot();
    expect(() => Engine.restore(text, { areas: WITH_ESCROW })).not.toThrow();
    // The ledger's rule: locked equals the sum of the holds on the account.
    expect(() => Engine.restore(text.replace('"300",900', '"299",900'), { areas: WITH_ESCROW })).toThrow(
      /locks 300 but its holds total 299/,
    );
    // The area's rule: every box owns an open hold.
    const document = JSON.parse(text) as Record<string, unknown>;
    delete document.holds;
    expect(() => Engine.restore(JSON.stringify(document), { areas: WITH_ESCROW })).toThrow(
      /escrow box 1 has no hold/,
    );
  });

  it('decodes its bigint fields through the codec of its area list', () => {
    const codec = codecFor(WITH_ESCROW);
    const envelope = {
      seq: 1,
      timeMs: 1,
      command: {
        type: 'openBox',
        userId: 1,
        currencyId: USDT,
        boxAmount: 12_345_678_901_234_567_890n,
        forMs: 1,
      },
    } as unknown as Envelope;
    expect(codec.decodeEnvelope(codec.encodeEnvelope(envelope))).toEqual(envelope);
    expect(codec.bigintFields.has('boxAmount')).toBe(true);
    expect(BIGINT_FIELDS.has('boxAmount')).toBe(false);
  });

  it('refuses an area list with a command type, an area name or a code taken twice', () => {
    expect(() => Engine.create({ areas: [...WITH_ESCROW, escrowArea] })).toThrow(EngineInvariantError);
    const clash = { ...escrowArea, name: 'escrow2', resultCodes: { clash: ResultCode.insufficientFunds } };
    expect(() => Engine.create({ areas: [...AREAS, { ...clash, commands: {} }] })).toThrow(
      /result code 2000/,
    );
    const sameCommands = {
      name: 'escrow2',
      commands: escrowArea.commands,
      createState: () => 0,
      queries: () => ({}),
    };
    expect(() => Engine.create({ areas: [...WITH_ESCROW, sameCommands] })).toThrow(
      /command openBox has two areas/,
    );
  });
});
