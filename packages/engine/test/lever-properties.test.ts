// Property test of the lever area over random sequences of opens, limit entries, revokes, closes, batch
// closes, stops, mark moves and gaps, overnight days and lever-wallet transfers. After every command, from
// the public views and recomputed here independently of the engine's formulas:
// - every currency sums to zero over all accounts (users, house, fees, insurance fund, outside);
// - no balance other than the outside world's is below zero;
// - every liquidation happened at or below the threshold (its own numbers, and the mark crossing the
//   liquidation price displayed before the mark moved);
// - no user is left at or below the threshold with a position open;
// - the displayed liquidation price (calc) is the exact boundary, so within one tick of the actual trigger.
// The engine's own invariants (holds match records, no crossed trigger) run after every command too.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EngineEvent, LeverPositionView, Outcome } from '../src/index.ts';
import type { LeverDriver } from './lever-driver.ts';
import { BTC_USDT, DAY, ETH_USDT, USDT, leverSetUp } from './lever-driver.ts';

const USERS = [1, 2, 3, 4];
const MARKETS = [BTC_USDT, ETH_USDT];

type Op =
  | {
      kind: 'open' | 'entry';
      user: number;
      market: number;
      side: 1 | 2;
      share: number;
      multiple: number;
      offset: number;
    }
  | { kind: 'revoke' | 'close'; user: number; pick: number }
  | { kind: 'batch'; user: number; which: 0 | 1 | 2 }
  | { kind: 'stops'; user: number; pick: number; tp: number; sl: number }
  | { kind: 'mark'; market: number; movePermille: number }
  | { kind: 'overnight'; days: number }
  | { kind: 'transfer'; user: number; out: boolean; amount: number };

const user = fc.constantFrom(...USERS);
const market = fc.constantFrom(...MARKETS);
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constantFrom('open' as const, 'entry' as const),
      user,
      market,
      side: fc.constantFrom(1 as const, 2 as const),
      share: fc.integer({ min: 1, max: 20 }),
      multiple: fc.constantFrom(5, 10, 20),
      offset: fc.integer({ min: 1, max: 80 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constantFrom('revoke' as const, 'close' as const),
      user,
      pick: fc.nat(8),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('batch' as const),
      user,
      which: fc.constantFrom(0 as const, 1 as const, 2 as const),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('stops' as const),
      user,
      pick: fc.nat(8),
      tp: fc.integer({ min: 0, max: 150 }),
      sl: fc.integer({ min: 0, max: 150 }),
    }),
  },
  // moves of up to 4 %, and gaps of up to 30 %
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('mark' as const),
      market,
      movePermille: fc.integer({ min: -40, max: 40 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('mark' as const),
      market,
      movePermille: fc.integer({ min: -300, max: 300 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('overnight' as const), days: fc.integer({ min: 1, max: 3 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('transfer' as const),
      user,
      out: fc.boolean(),
      amount: fc.integer({ min: 1, max: 3_000 }),
    }),
  },
);

/** Equity of a user's holdings in USDT at the given marks, recomputed from the views. */
function equityAt(balance: bigint, holdings: LeverPositionView[], marks: Map<number, number>): bigint {
  let equity = balance;
  for (const p of holdings) {
    const mark = BigInt(marks.get(p.marketId) as number);
    const move = (mark - BigInt(p.entryTicks)) * BigInt(p.lots);
    equity += p.margin + (p.side === 1 ? move : -move);
  }
  return equity;
}

function atOrBelow(equity: bigint, holdings: LeverPositionView[]): boolean {
  const origin = holdings.reduce((sum, p) => sum + p.originMargin, 0n);
  const threshold = Math.max(...holdings.map((p) => p.rules.liquidationThresholdBp));
  return equity * 10_000n <= BigInt(threshold) * origin;
}

function marksOf(d: LeverDriver): Map<number, number> {
  return new Map(MARKETS.map((id) => [id, d.markOf(id)]));
}

function holdingsOf(d: LeverDriver, userId: number): LeverPositionView[] {
  return d.engine.lever.positions(userId, 1);
}

function netLots(holdings: LeverPositionView[], marketId: number): number {
  return holdings
    .filter((p) => p.marketId === marketId)
    .reduce((n, p) => n + (p.side === 1 ? p.lots : -p.lots), 0);
}

function checkAfter(d: LeverDriver, outcome: Outcome): void {
  // Zero-sum per currency, nothing below zero but the outside world.
  const sums = new Map<number, bigint>();
  for (const account of d.engine.ledger.accounts()) {
    sums.set(account.currencyId, (sums.get(account.currencyId) ?? 0n) + account.available + account.locked);
    if (account.owner !== 'outside') {
      expect(account.available).toBeGreaterThanOrEqual(0n);
      expect(account.locked).toBeGreaterThanOrEqual(0n);
    }
  }
  for (const sum of sums.values()) expect(sum).toBe(0n);
  // Every liquidation at or below its threshold, by its own numbers.
  for (const event of outcome.events)
    if (event.type === 'leverLiquidated')
      expect(event.equity * 10_000n <= BigInt(event.thresholdBp) * event.originMargin).toBe(true);
  const marks = marksOf(d);
  for (const userId of USERS) {
    const holdings = holdingsOf(d, userId);
    if (holdings.length === 0) continue;
    const balance = d.engine.ledger.balance(userId, 'lever', USDT).available;
    // No position left open at or below the threshold.
    expect(atOrBelow(equityAt(balance, holdings, marks), holdings)).toBe(false);
    // The displayed liquidation price is the exact boundary: at it the user is liquidated, one tick
    // before it (toward the current mark) not.
    for (const marketId of MARKETS) {
      const shown = holdings.find((p) => p.marketId === marketId)?.liquidationTicks;
      if (shown === undefined) continue;
      const net = netLots(holdings, marketId);
      if (net === 0) {
        expect(shown).toBeNull();
        continue;
      }
      expect(shown).not.toBeNull();
      const at = new Map(marks).set(marketId, shown as number);
      const before = new Map(marks).set(marketId, (shown as number) + (net > 0 ? 1 : -1));
      expect(atOrBelow(equityAt(balance, holdings, before), holdings)).toBe(false);
      if ((shown as number) >= 1) expect(atOrBelow(equityAt(balance, holdings, at), holdings)).toBe(true);
    }
  }
}

function run(d: LeverDriver, step: Op): Outcome {
  switch (step.kind) {
    case 'open':
    case 'entry': {
      const mark = d.markOf(step.market);
      const base = {
        userId: step.user,
        marketId: step.market,
        side: step.side,
        share: step.share,
        multiple: step.multiple,
      };
      if (step.kind === 'open') return d.apply({ type: 'openLeverPosition', ...base });
      const targetTicks = Math.max(1, step.side === 1 ? mark - step.offset : mark + step.offset);
      return d.apply({ type: 'submitLeverEntry', ...base, targetTicks });
    }
    case 'revoke':
    case 'close': {
      const records = d.engine.lever.positions(step.user, step.kind === 'revoke' ? 0 : 1);
      const positionId = records[step.pick % Math.max(1, records.length)]?.positionId ?? 999;
      return step.kind === 'revoke'
        ? d.apply({ type: 'revokeLeverEntry', userId: step.user, positionId })
        : d.apply({ type: 'closeLeverPosition', userId: step.user, positionId });
    }
    case 'batch':
      return d.apply({ type: 'closeLeverPositions', userId: step.user, which: step.which });
    case 'stops': {
      const records = d.engine.lever.positions(step.user, 1);
      const p = records[step.pick % Math.max(1, records.length)];
      if (p === undefined)
        return d.apply({
          type: 'setLeverStops',
          userId: step.user,
          positionId: 999,
          takeProfitTicks: 0,
          stopLossTicks: 0,
        });
      const mark = d.markOf(p.marketId);
      const up = Math.max(mark, p.entryTicks);
      const down = Math.min(mark, p.entryTicks);
      const tp = step.tp === 0 ? 0 : p.side === 1 ? up + step.tp : Math.max(0, down - step.tp);
      const sl = step.sl === 0 ? 0 : p.side === 1 ? Math.max(0, down - step.sl) : up + step.sl;
      return d.apply({
        type: 'setLeverStops',
        userId: step.user,
        positionId: p.positionId,
        takeProfitTicks: tp,
        stopLossTicks: sl,
      });
    }
    case 'mark': {
      const mark = d.markOf(step.market);
      return d.mark(step.market, Math.max(1, Math.round((mark * (1_000 + step.movePermille)) / 1_000)));
    }
    case 'overnight': {
      d.timeMs += step.days * DAY;
      for (const marketId of MARKETS) d.mark(marketId, d.markOf(marketId));
      return d.apply({ type: 'chargeLeverOvernight', day: Math.floor(d.timeMs / DAY) });
    }
    case 'transfer':
      return d.apply({
        type: 'transfer',
        userId: step.user,
        currencyId: USDT,
        fromWallet: step.out ? 'lever' : 'change',
        toWallet: step.out ? 'change' : 'lever',
        amount: BigInt(step.amount),
      });
  }
}

/** Liquidation prices shown before a mark command, by user and pair. */
function shownPrices(d: LeverDriver): Map<string, { ticks: number; net: number }> {
  const shown = new Map<string, { ticks: number; net: number }>();
  for (const userId of USERS) {
    const holdings = holdingsOf(d, userId);
    for (const marketId of MARKETS) {
      const ticks = holdings.find((p) => p.marketId === marketId)?.liquidationTicks;
      if (ticks !== undefined && ticks !== null)
        shown.set(`${userId}:${marketId}`, { ticks, net: netLots(holdings, marketId) });
    }
  }
  return shown;
}

function changedBesidesLiquidation(events: EngineEvent[], userId: number): boolean {
  return events.some(
    (e) =>
      (e.type === 'leverPositionOpened' && e.userId === userId) ||
      (e.type === 'leverPositionClosed' && e.userId === userId && e.reason !== 'liquidation'),
  );
}

describe('lever properties', () => {
  it('hold after every command of random sequences', () => {
    const seen: Record<string, number> & {
      liquidations: number;
      entries: number;
      overnight: number;
      shortfalls: number;
    } = {
      liquidations: 0,
      entries: 0,
      overnight: 0,
      shortfalls: 0,
    };
    fc.assert(
      fc.property(
        fc.array(op, { minLength: 20, maxLength: 100 }),
        fc.integer({ min: 0, max: 3_000 }),
        (ops, fund) => {
          const d = leverSetUp({ lotsPerShare: 1 }, 5_000_000n);
          d.ok({
            type: 'setLeverPair',
            marketId: ETH_USDT,
            ...pairRules(d, ETH_USDT),
            lotsPerShare: 10,
            liquidationThresholdBp: 2_000,
            liquidationFeePpm: 5_000,
            spreadPpm: 2_000,
          });
          if (fund > 0) d.fundSystem('insurance', BigInt(fund));
          for (const userId of USERS) {
            d.fund(userId, BigInt(300 + ((fund * userId * 7919) % 2_500)));
            d.ok({ type: 'deposit', userId, currencyId: USDT, amount: 10_000n });
          }
          let liquidations = 0;
          for (const step of ops) {
            const shown = step.kind === 'mark' ? shownPrices(d) : undefined;
            const outcome = run(d, step);
            checkAfter(d, outcome);
            if (step.kind !== 'mark' || shown === undefined) continue;
            // A mark command moves one pair's mark: a user whose book nothing else changed is liquidated
            // exactly when the new mark reaches the price shown before it.
            const mark = d.markOf(step.market);
            for (const userId of USERS) {
              const before = shown.get(`${userId}:${step.market}`);
              if (before === undefined || changedBesidesLiquidation(outcome.events, userId)) continue;
              const liquidated = outcome.events.some(
                (e) => e.type === 'leverLiquidated' && e.userId === userId,
              );
              const crossed = before.net > 0 ? mark <= before.ticks : mark >= before.ticks;
              expect(liquidated).toBe(crossed);
              if (liquidated) liquidations += 1;
            }
          }
          seen.liquidations += liquidations;
          for (const event of d.events)
            if (event.type === 'leverPositionClosed') seen[event.reason] = (seen[event.reason] ?? 0) + 1;
            else if (event.type === 'leverPositionOpened' && event.fromEntry) seen.entries += 1;
            else if (event.type === 'leverOvernightCharged') seen.overnight += 1;
          for (const event of d.events)
            if (event.type === 'leverLiquidated') {
              seen.liquidated = (seen.liquidated ?? 0) + 1;
              if (event.shortfall > 0n) seen.shortfalls += 1;
            }
        },
      ),
      // A fixed seed: the check that every path was taken must not depend on luck.
      { numRuns: 100, seed: 2026_11_17 },
    );
    // The sequences reach every path the properties are about.
    for (const path of [
      'liquidations',
      'entries',
      'overnight',
      'shortfalls',
      'takeProfit',
      'stopLoss',
      'user',
      'batch',
    ])
      expect(seen[path], path).toBeGreaterThan(0);
  }, 120_000);
});

function pairRules(d: LeverDriver, marketId: number) {
  const { quoteCurrencyId: _q, marketId: _m, ...rules } = d.engine.lever.pair(marketId)!;
  return rules;
}
