// The lever area's rules as scenario tables: spread, margin, fee, profit, risk rate, overnight, liquidation
// with and without a shortfall, limit entries, stops, batch close, house exposure and the lever wallet's
// reserve. Every command runs with the engine's invariants checked after it (lever-driver.ts).
import { describe, expect, it } from 'vitest';
import {
  leverContractValue,
  leverEntryTicks,
  leverEntryTriggerTicks,
  leverFee,
  leverLiquidationTicks,
  leverMargin,
  leverPositionLiquidationTicks,
  leverProfit,
  leverRiskRateBp,
} from '../src/calc/index.ts';
import {
  Engine,
  LeverResultCode,
  ResultCode,
  decodeEnvelope,
  decodeEvents,
  encodeEnvelope,
  encodeEvents,
  resultCodeName,
} from '../src/index.ts';
import type {
  EngineEvent,
  LeverLiquidatedEvent,
  LeverOvernightChargedEvent,
  LeverPositionClosedEvent,
} from '../src/index.ts';
import { BTC_USDT, DAY, ETH_USDT, USDT, leverSetUp } from './lever-driver.ts';

function ofType<T extends EngineEvent['type']>(
  events: EngineEvent[],
  type: T,
): Extract<EngineEvent, { type: T }>[] {
  return events.filter((event): event is Extract<EngineEvent, { type: T }> => event.type === type);
}

describe('lever formulas (calc)', () => {
  it.each([
    // mark, spread ppm, side, entry: a long rounds up, a short down (toward the house)
    [1_000, 1_000, 1, 1_001],
    [1_000, 1_000, 2, 999],
    [1_234, 1_000, 1, 1_236], // 1235.234 up
    [1_234, 1_000, 2, 1_232], // 1232.766 down
    [1_000, 0, 1, 1_000],
    [1_000, 0, 2, 1_000],
    [7, 500_000, 1, 11], // 10.5 up
    [7, 500_000, 2, 3], // 3.5 down
  ] as const)('entry at mark %i with spread %i ppm, side %i: %i', (markTicks, spreadPpm, side, entry) => {
    expect(leverEntryTicks({ markTicks, spreadPpm, side })).toBe(entry);
  });

  it.each([
    // price, lots, q, multiple, contract value, margin (up), fee ppm, fee (up)
    [1_001, 20, 1n, 10, 20_020n, 2_002n, 1_000, 21n],
    [1_001, 20, 1n, 20, 20_020n, 1_001n, 0, 0n],
    [999, 3, 7n, 5, 20_979n, 4_196n, 2_500, 53n], // 4195.8 up, 52.4475 up
    [950, 20, 1n, 10, 19_000n, 1_900n, 1_000, 19n], // exact: no rounding
  ] as const)(
    'value, margin and fee of %i x %i lots',
    (priceTicks, lots, q, multiple, value, margin, feePpm, fee) => {
      const contractValue = leverContractValue({ priceTicks, lots, quoteMinorPerTickLot: q });
      expect(contractValue).toBe(value);
      expect(leverMargin({ contractValue, multiple })).toBe(margin);
      expect(leverFee({ amount: contractValue, ratePpm: feePpm })).toBe(fee);
    },
  );

  it.each([
    // side, entry, mark, lots, profit: long (mark - entry) x lots, short the reverse; leverage does not multiply
    [1, 1_001, 1_100, 20, 1_980n],
    [1, 1_001, 900, 20, -2_020n],
    [2, 999, 900, 20, 1_980n],
    [2, 999, 1_100, 20, -2_020n],
    [1, 1_001, 1_001, 20, 0n],
  ] as const)('profit side %i entry %i mark %i', (side, entryTicks, markTicks, lots, profit) => {
    expect(leverProfit({ side, entryTicks, markTicks, lots, quoteMinorPerTickLot: 1n })).toBe(profit);
  });

  it.each([
    // equity, origin margin, risk rate bp (rounded down; null without margin)
    [2_002n, 2_002n, 10_000],
    [182n, 2_002n, 909], // 9.0909 %
    [200n, 2_002n, 999], // 9.99 %
    [-100n, 2_002n, -500], // -4.995 % rounds down
    [5_000n, 0n, null],
  ] as const)('risk rate of equity %s over %s', (equity, originMargin, rate) => {
    expect(leverRiskRateBp({ equity, originMargin })).toBe(rate);
  });

  it('liquidation price is the exact boundary of the threshold comparison', () => {
    // Long 20 lots at 1001, margin 2002, balance 0, threshold 10 %: equity 2002 + (m - 1001) x 20 <= 200.2.
    expect(
      leverPositionLiquidationTicks({
        side: 1,
        lots: 20,
        entryTicks: 1_001,
        quoteMinorPerTickLot: 1n,
        margin: 2_002n,
        balance: 0n,
        thresholdBp: 1_000,
      }),
    ).toBe(910);
    // Short 20 lots at 999, margin 1998: equity 1998 + (999 - m) x 20 <= 199.8  =>  m >= 1088.91.
    expect(
      leverPositionLiquidationTicks({
        side: 2,
        lots: 20,
        entryTicks: 999,
        quoteMinorPerTickLot: 1n,
        margin: 1_998n,
        balance: 0n,
        thresholdBp: 1_000,
      }),
    ).toBe(1_089);
    expect(
      leverLiquidationTicks({
        netLots: 0,
        quoteMinorPerTickLot: 1n,
        restEquity: 5n,
        originMargin: 5n,
        thresholdBp: 1,
      }),
    ).toBeNull();
  });

  it.each([
    // target, spread, side, trigger mark: the mark whose market entry reaches the target
    [950, 1_000, 1, 949], // ceil(949 x 1.001) = 950, ceil(950 x 1.001) = 951
    [1_050, 1_000, 2, 1_052], // floor(1051 x 0.999) = 1049, floor(1052 x 0.999) = 1050
    [950, 0, 1, 950],
    [1_050, 0, 2, 1_050],
  ] as const)(
    'a limit entry at %i (spread %i, side %i) opens at mark %i',
    (targetTicks, spreadPpm, side, mark) => {
      expect(leverEntryTriggerTicks({ targetTicks, spreadPpm, side })).toBe(mark);
    },
  );
});

describe('opening and closing at market', () => {
  it('opens a long at mark plus spread with margin held and the fee paid', () => {
    const d = leverSetUp();
    d.fund(7, 100_000n);
    const outcome = d.ok({
      type: 'openLeverPosition',
      userId: 7,
      marketId: BTC_USDT,
      side: 1,
      share: 2,
      multiple: 10,
    });
    expect(outcome.reply).toEqual({
      positionId: 1,
      status: 1,
      entryTicks: 1_001,
      lots: 20,
      margin: 2_002n,
      fee: 21n,
    });
    expect(d.lever(7)).toEqual({ available: 100_000n - 2_002n - 21n, locked: 2_002n });
    expect(d.balance('fees').available).toBe(21n);
    const opened = ofType(outcome.events, 'leverPositionOpened')[0];
    expect(opened).toMatchObject({
      markTicks: 1_000,
      entryTicks: 1_001,
      contractValue: 20_020n,
      margin: 2_002n,
    });
    expect(opened?.rules).toEqual({
      lotsPerShare: 10,
      spreadPpm: 1_000,
      feePpm: 1_000,
      overnightPpm: 500,
      liquidationThresholdBp: 1_000,
      liquidationFeePpm: 0,
    });
    const risk = d.engine.lever.risk(7, USDT);
    // equity = 97977 + 2002 + (1000 - 1001) x 20 = 99959; rate 99959 / 2002 = 4993.0 %
    expect(risk).toMatchObject({ equity: 99_959n, originMargin: 2_002n, riskRateBp: 499_295, holdings: 1 });
  });

  it('closes with a profit paid by the house and with a loss paid to it; the fee is not refunded', () => {
    const d = leverSetUp();
    d.fund(7, 100_000n);
    d.ok({ type: 'openLeverPosition', userId: 7, marketId: BTC_USDT, side: 1, share: 2, multiple: 10 });
    d.ok({ type: 'openLeverPosition', userId: 7, marketId: BTC_USDT, side: 2, share: 2, multiple: 10 });
    const house = d.balance('house').available;
    d.mark(BTC_USDT, 1_100);
    const long = d.ok({ type: 'closeLeverPosition', userId: 7, positionId: 1 });
    expect(long.reply).toEqual({
      positionId: 1,
      closeTicks: 1_100,
      profit: 1_980n,
      returned: 2_002n + 1_980n,
    });
    const short = d.ok({ type: 'closeLeverPosition', userId: 7, positionId: 2 });
    // short entry 999 (margin 1998, fee 20): profit (999 - 1100) x 20 = -2020 = margin 1998 + 22 from balance
    expect(short.reply).toEqual({ positionId: 2, closeTicks: 1_100, profit: -2_020n, returned: 0n });
    const closed = ofType(short.events, 'leverPositionClosed')[0] as LeverPositionClosedEvent;
    expect(closed).toMatchObject({
      lossFromMargin: 1_998n,
      lossFromBalance: 22n,
      shortfall: 0n,
      reason: 'user',
    });
    expect(d.balance('house').available).toBe(house - 1_980n + 2_020n);
    expect(d.lever(7)).toEqual({ available: 100_000n - 21n - 20n + 1_980n - 2_020n, locked: 0n });
    expect(d.engine.lever.positions(7)).toEqual([]);
    expect(d.apply({ type: 'closeLeverPosition', userId: 7, positionId: 2 }).code).toBe(
      LeverResultCode.leverPositionNotFound,
    );
  });

  it('refuses bad orders with nothing changed', () => {
    const d = leverSetUp({ maxShare: 5, exposureLimitLots: 30 });
    d.fund(7, 100_000n);
    const open = {
      type: 'openLeverPosition',
      userId: 7,
      marketId: BTC_USDT,
      side: 1,
      share: 2,
      multiple: 10,
    } as const;
    const cases: [object, number][] = [
      [{ multiple: 3 }, LeverResultCode.leverMultipleNotOffered],
      [{ share: 6 }, LeverResultCode.leverShareOutOfRange],
      [{ share: 1.5 }, ResultCode.invalidField],
      [{ side: 3 }, ResultCode.invalidSide],
      [{ marketId: 9 }, LeverResultCode.leverPairNotOpen],
      [{ userId: 8 }, ResultCode.insufficientFunds],
      [{ share: 4 }, LeverResultCode.leverExposureLimit],
    ];
    for (const [change, code] of cases) {
      const outcome = d.apply({ ...open, ...change } as typeof open);
      expect(outcome.code).toBe(code);
      expect(outcome.events).toEqual([]);
    }
    d.ok(open); // 20 lots long
    expect(d.apply({ ...open, share: 2 }).code).toBe(LeverResultCode.leverExposureLimit); // 40 > 30
    d.ok({ ...open, side: 2, share: 5 }); // a short reduces the net: 20 - 50 = -30
    expect(d.engine.lever.exposure()[0]).toMatchObject({
      longLots: 20,
      shortLots: 50,
      netLots: -30,
      limitLots: 30,
    });
    d.mark(BTC_USDT, 1_000, 20_000); // a stale-free sample, but 20 s after the last command
    d.timeMs += 11_000;
    expect(d.apply(open).code).toBe(LeverResultCode.leverNoMark);
    d.ok({ type: 'setLeverPair', marketId: BTC_USDT, ...{ ...leverPairOf(d), enabled: false } });
    d.mark(BTC_USDT, 1_000);
    expect(d.apply(open).code).toBe(LeverResultCode.leverPairNotOpen);
  });
});

function leverPairOf(d: ReturnType<typeof leverSetUp>) {
  const { quoteCurrencyId: _q, marketId: _m, ...rules } = d.engine.lever.pair(BTC_USDT)!;
  return rules;
}

describe('liquidation', () => {
  // One long of 20 lots at 1001 with margin 2002, a balance of 0 after margin and fee, threshold 10 %:
  // the liquidation price is 910 (calc), equity there 2002 - 91 x 20 = 182.
  function oneLong(pair = {}, insurance = 0n) {
    const d = leverSetUp(pair);
    if (insurance > 0n) d.fundSystem('insurance', insurance);
    d.fund(7, 2_023n);
    d.ok({ type: 'openLeverPosition', userId: 7, marketId: BTC_USDT, side: 1, share: 2, multiple: 10 });
    expect(d.lever(7)).toEqual({ available: 0n, locked: 2_002n });
    expect(d.engine.lever.position(1)?.liquidationTicks).toBe(910);
    return d;
  }

  it.each([
    // mark, fee ppm, insurance, user gets, house gets (fund's payment included), fund pays, uncovered, fee
    [911, 0, 0n, null, 0n, 0n, 0n, 0n], // one tick above: not liquidated
    [910, 0, 0n, 182n, 1_820n, 0n, 0n, 0n], // at the price: margin + profit returned
    [910, 5_000, 0n, 81n, 1_820n, 0n, 0n, 101n], // disclosed fee 0.5 % of 20020 = 101 to the fund
    [800, 0, 10_000n, 0n, 4_020n, 2_018n, 0n, 0n], // a gap: loss 4020 > margin 2002, the fund pays 2018 of it
    [800, 0, 1_000n, 0n, 3_002n, 1_000n, 1_018n, 0n], // the fund has 1000: the house bears 1018
  ] as const)(
    'a mark of %i (liquidation fee %i ppm, fund %s)',
    (mark, liquidationFeePpm, insurance, userGets, houseGets, fundPays, uncovered, fee) => {
      const d = oneLong({ liquidationFeePpm }, insurance);
      const house = d.balance('house').available;
      const outcome = d.mark(BTC_USDT, mark);
      const liquidated = ofType(outcome.events, 'leverLiquidated');
      if (userGets === null) {
        expect(liquidated).toEqual([]);
        expect(d.engine.lever.positions(7)).toHaveLength(1);
        return;
      }
      const event = liquidated[0] as LeverLiquidatedEvent;
      expect(event).toMatchObject({ userId: 7, marketId: BTC_USDT, markTicks: mark, thresholdBp: 1_000 });
      expect(event.equity * 10_000n <= 1_000n * event.originMargin).toBe(true);
      expect(event).toMatchObject({ shortfall: fundPays, liquidationFee: fee, positionIds: [1] });
      const closed = ofType(outcome.events, 'leverPositionClosed')[0] as LeverPositionClosedEvent;
      expect(closed).toMatchObject({ reason: 'liquidation', closeTicks: mark, uncovered });
      expect(d.lever(7)).toEqual({ available: userGets, locked: 0n });
      expect(d.balance('house').available - house).toBe(houseGets);
      expect(d.balance('insurance').available).toBe(insurance - fundPays + fee);
      expect(d.engine.lever.positions(7)).toEqual([]);
    },
  );

  it('cross margin: every position of the quote currency closes, at its own mark; profits first', () => {
    const d = leverSetUp();
    d.fund(7, 3_000n);
    d.ok({ type: 'openLeverPosition', userId: 7, marketId: BTC_USDT, side: 1, share: 2, multiple: 20 }); // 20 @1001, m 1001
    d.ok({ type: 'openLeverPosition', userId: 7, marketId: ETH_USDT, side: 2, share: 2, multiple: 20 }); // 20 @99, m 99
    const before = d.engine.lever.position(1)?.liquidationTicks as number;
    d.mark(ETH_USDT, 90); // the short gains (100 - 90) x 20 = 200: the long's liquidation price falls 10
    const after = d.engine.lever.position(1)?.liquidationTicks as number;
    expect(after).toBe(before - 10);
    const outcome = d.mark(BTC_USDT, after);
    const closed = ofType(outcome.events, 'leverPositionClosed');
    expect(closed.map((event) => [event.positionId, event.closeTicks])).toEqual([
      [2, 90],
      [1, after],
    ]);
    const event = ofType(outcome.events, 'leverLiquidated')[0] as LeverLiquidatedEvent;
    expect(event.marks).toEqual([
      [BTC_USDT, after],
      [ETH_USDT, 90],
    ]);
    expect(event.equity * 10_000n <= 1_000n * event.originMargin).toBe(true);
    // One tick higher would not have liquidated (the price is exact).
    const restEquity = event.equity - 20n * BigInt(after);
    expect(
      leverLiquidationTicks({
        netLots: 20,
        quoteMinorPerTickLot: 1n,
        restEquity,
        originMargin: event.originMargin,
        thresholdBp: 1_000,
      }),
    ).toBe(after);
  });
});

describe('limit entries', () => {
  it('holds margin and fee priced on the target, opens when the mark crosses, revokes in full', () => {
    const d = leverSetUp();
    d.fund(7, 10_000n);
    const entry = {
      type: 'submitLeverEntry',
      userId: 7,
      marketId: BTC_USDT,
      side: 1,
      share: 2,
      multiple: 10,
    } as const;
    expect(d.apply({ ...entry, targetTicks: 1_000 }).code).toBe(LeverResultCode.leverTargetWrongSide);
    const placed = d.ok({ ...entry, targetTicks: 950 });
    expect(placed.reply).toEqual({
      positionId: 1,
      status: 0,
      entryTicks: 950,
      lots: 20,
      margin: 1_900n,
      fee: 19n,
    });
    expect(d.lever(7)).toEqual({ available: 10_000n - 1_919n, locked: 1_919n });
    d.ok({ ...entry, targetTicks: 900 });
    expect(d.ok({ type: 'revokeLeverEntry', userId: 7, positionId: 2 }).reply).toEqual({
      positionId: 2,
      marginRefund: 1_800n,
      feeRefund: 18n,
    });
    expect(d.lever(7)).toEqual({ available: 10_000n - 1_919n, locked: 1_919n });
    expect(ofType(d.mark(BTC_USDT, 950).events, 'leverPositionOpened')).toEqual([]); // 950 + spread = 951
    const opened = ofType(d.mark(BTC_USDT, 949).events, 'leverPositionOpened')[0];
    expect(opened).toMatchObject({
      positionId: 1,
      fromEntry: true,
      entryTicks: 950,
      markTicks: 949,
      fee: 19n,
    });
    expect(d.lever(7)).toEqual({ available: 10_000n - 1_919n, locked: 1_900n });
    expect(d.balance('fees').available).toBe(19n);
    expect(d.engine.lever.position(1)).toMatchObject({ status: 1, profit: -20n });
    expect(d.apply({ type: 'revokeLeverEntry', userId: 7, positionId: 1 }).code).toBe(
      LeverResultCode.leverWrongStatus,
    );
  });
});

describe('stop-loss and take-profit', () => {
  it('checks the side rules and closes at the mark that crossed', () => {
    const d = leverSetUp();
    d.fund(7, 10_000n);
    d.ok({ type: 'openLeverPosition', userId: 7, marketId: BTC_USDT, side: 1, share: 2, multiple: 10 }); // entry 1001
    d.ok({ type: 'openLeverPosition', userId: 7, marketId: BTC_USDT, side: 2, share: 1, multiple: 10 }); // entry 999
    const stops = { type: 'setLeverStops', userId: 7, positionId: 1 } as const;
    for (const [takeProfitTicks, stopLossTicks] of [
      [1_001, 0], // long take-profit must be above the entry
      [0, 1_000], // long stop-loss must be below the mark
    ] as const)
      expect(d.apply({ ...stops, takeProfitTicks, stopLossTicks }).code).toBe(
        LeverResultCode.leverStopWrongSide,
      );
    const shortStops = { type: 'setLeverStops', userId: 7, positionId: 2 } as const;
    expect(d.apply({ ...shortStops, takeProfitTicks: 999, stopLossTicks: 0 }).code).toBe(
      LeverResultCode.leverStopWrongSide,
    );
    d.ok({ ...stops, takeProfitTicks: 1_050, stopLossTicks: 960 });
    d.ok({ ...shortStops, takeProfitTicks: 950, stopLossTicks: 1_040 });
    expect(ofType(d.mark(BTC_USDT, 1_039).events, 'leverPositionClosed')).toEqual([]);
    const both = d.mark(BTC_USDT, 1_060).events; // crosses the long's take-profit and the short's stop-loss
    expect(
      ofType(both, 'leverPositionClosed').map((e) => [e.positionId, e.reason, e.closeTicks, e.profit]),
    ).toEqual([
      [1, 'takeProfit', 1_060, 1_180n],
      [2, 'stopLoss', 1_060, -610n],
    ]);
  });

  it('batch close: longs only, then all', () => {
    const d = leverSetUp();
    d.fund(7, 20_000n);
    for (const side of [1, 2, 1] as const)
      d.ok({ type: 'openLeverPosition', userId: 7, marketId: BTC_USDT, side, share: 1, multiple: 10 });
    const longs = d.ok({ type: 'closeLeverPositions', userId: 7, which: 1 });
    expect((longs.reply as { closed: { positionId: number }[] }).closed.map((c) => c.positionId)).toEqual([
      1, 3,
    ]);
    expect(d.engine.lever.positions(7).map((p) => p.positionId)).toEqual([2]);
    d.ok({ type: 'closeLeverPositions', userId: 7, which: 0 });
    expect(d.engine.lever.positions(7)).toEqual([]);
  });
});

describe('holders (whom a mark move concerns)', () => {
  it('lists the users with an open position on a pair or in a quote currency; entries do not count', () => {
    const d = leverSetUp();
    for (const userId of [7, 8, 9]) d.fund(userId, 20_000n);
    expect(d.engine.lever.holdersOf(BTC_USDT)).toEqual([]);
    d.ok({ type: 'openLeverPosition', userId: 9, marketId: BTC_USDT, side: 1, share: 1, multiple: 10 });
    d.ok({ type: 'openLeverPosition', userId: 9, marketId: BTC_USDT, side: 2, share: 1, multiple: 10 });
    d.ok({ type: 'openLeverPosition', userId: 7, marketId: ETH_USDT, side: 1, share: 1, multiple: 10 });
    d.ok({
      type: 'submitLeverEntry',
      userId: 8,
      marketId: BTC_USDT,
      side: 1,
      share: 1,
      multiple: 10,
      targetTicks: 900,
    });
    expect(d.engine.lever.holdersOf(BTC_USDT)).toEqual([9]); // once, with two holdings
    expect(d.engine.lever.holdersOf(ETH_USDT)).toEqual([7]);
    expect(d.engine.lever.holdersIn(USDT)).toEqual([7, 9]);
    d.mark(BTC_USDT, 899); // the entry opens: user 8 now holds
    expect(d.engine.lever.holdersOf(BTC_USDT)).toEqual([8, 9]);
    d.ok({ type: 'closeLeverPositions', userId: 9, which: 1 });
    expect(d.engine.lever.holdersOf(BTC_USDT)).toEqual([8, 9]); // the short is still open
    d.ok({ type: 'closeLeverPositions', userId: 9, which: 0 });
    expect(d.engine.lever.holdersOf(BTC_USDT)).toEqual([8]);
    expect(d.engine.lever.holdersIn(USDT)).toEqual([7, 8]);
    d.ok({ type: 'closeLeverPositions', userId: 7, which: 0 });
    expect(d.engine.lever.holdersOf(ETH_USDT)).toEqual([]);
    expect(d.engine.lever.holdersIn(USDT)).toEqual([8]);
  });
});

describe('overnight fee', () => {
  it('charges once per position and day, catches up missed days, never twice', () => {
    const d = leverSetUp();
    d.fund(7, 10_000n);
    d.ok({ type: 'openLeverPosition', userId: 7, marketId: BTC_USDT, side: 1, share: 2, multiple: 10 });
    const today = Math.floor(d.timeMs / DAY);
    expect(d.ok({ type: 'chargeLeverOvernight', day: today }).reply).toMatchObject({ charges: 0 }); // opened today
    expect(d.apply({ type: 'chargeLeverOvernight', day: today + 1 }).code).toBe(
      LeverResultCode.leverDayNotReached,
    );
    d.timeMs += DAY;
    d.mark(BTC_USDT, 1_000);
    const first = d.ok({ type: 'chargeLeverOvernight', day: today + 1 });
    // 20020 x 500 ppm = 10.01, rounded up: 11, from the margin
    expect(first.reply).toEqual({ day: today + 1, charges: 1, totals: [{ currencyId: USDT, charged: 11n }] });
    expect(d.ok({ type: 'chargeLeverOvernight', day: today + 1 }).reply).toMatchObject({ charges: 0 });
    d.timeMs += 3 * DAY;
    d.mark(BTC_USDT, 1_000);
    const caughtUp = d.ok({ type: 'chargeLeverOvernight', day: today + 4 });
    const charged = ofType(caughtUp.events, 'leverOvernightCharged') as LeverOvernightChargedEvent[];
    expect(charged.map((e) => e.day)).toEqual([today + 2, today + 3, today + 4]);
    expect(d.engine.lever.position(1)).toMatchObject({
      margin: 2_002n - 44n,
      overnightPaid: 44n,
      originMargin: 2_002n,
    });
    expect(d.lever(7).locked).toBe(2_002n - 44n);
  });

  it('takes the margin first, then the balance, never below zero', () => {
    const d = leverSetUp({ overnightPpm: 100_000 }); // 10 % a day: 2002 of a 20020 contract
    d.fund(7, 4_023n); // margin 2002 + fee 21 + a balance of 2000
    d.ok({ type: 'openLeverPosition', userId: 7, marketId: BTC_USDT, side: 1, share: 2, multiple: 10 });
    d.timeMs += DAY;
    d.mark(BTC_USDT, 1_001);
    const outcome = d.ok({ type: 'chargeLeverOvernight', day: Math.floor(d.timeMs / DAY) });
    const [charge] = ofType(outcome.events, 'leverOvernightCharged');
    expect(charge).toMatchObject({
      fee: 2_002n,
      fromMargin: 2_002n,
      fromBalance: 0n,
      unpaid: 0n,
      margin: 0n,
    });
    // equity 2000 over origin 2002 is 99.9 %: above the threshold, still open
    expect(d.engine.lever.risk(7, USDT)).toMatchObject({ equity: 2_000n, riskRateBp: 9_990 });
    d.timeMs += DAY;
    d.mark(BTC_USDT, 1_001);
    const second = d.ok({ type: 'chargeLeverOvernight', day: Math.floor(d.timeMs / DAY) });
    const [again] = ofType(second.events, 'leverOvernightCharged');
    expect(again).toMatchObject({ fromMargin: 0n, fromBalance: 2_000n, unpaid: 2n });
    // nothing left: equity 0 is at or below 10 %: liquidated within the same command
    expect(ofType(second.events, 'leverLiquidated')).toHaveLength(1);
    expect(d.lever(7)).toEqual({ available: 0n, locked: 0n });
  });
});

describe('the lever wallet reserve (spec 03 s2)', () => {
  it('refuses a transfer out that the open positions need, and re-indexes after one', () => {
    const d = leverSetUp();
    d.fund(7, 12_023n);
    d.ok({ type: 'openLeverPosition', userId: 7, marketId: BTC_USDT, side: 1, share: 2, multiple: 10 });
    d.mark(BTC_USDT, 950); // profit -1020: the wallet must keep 1020
    expect(d.engine.lever.risk(7, USDT).reserved).toBe(1_020n);
    const out = {
      type: 'transfer',
      userId: 7,
      currencyId: USDT,
      fromWallet: 'lever',
      toWallet: 'change',
    } as const;
    expect(d.apply({ ...out, amount: 8_981n }).code).toBe(ResultCode.insufficientFunds);
    const liquidationBefore = d.engine.lever.position(1)?.liquidationTicks as number;
    d.ok({ ...out, amount: 8_980n });
    const liquidationAfter = d.engine.lever.position(1)?.liquidationTicks as number;
    expect(liquidationAfter).toBeGreaterThan(liquidationBefore);
    // the trigger moved with the balance: the new price liquidates
    expect(ofType(d.mark(BTC_USDT, liquidationAfter + 1).events, 'leverLiquidated')).toEqual([]);
    expect(ofType(d.mark(BTC_USDT, liquidationAfter).events, 'leverLiquidated')).toHaveLength(1);
  });
});

describe('snapshot', () => {
  it('writes no section before use, and restores to the same state hash with entries, stops and holdings', () => {
    const plain = Engine.create();
    expect(plain.snapshot()).not.toContain('"lever"');
    const d = leverSetUp();
    d.fund(7, 50_000n);
    d.fund(8, 50_000n);
    d.ok({ type: 'openLeverPosition', userId: 7, marketId: BTC_USDT, side: 1, share: 2, multiple: 10 });
    d.ok({ type: 'setLeverStops', userId: 7, positionId: 1, takeProfitTicks: 1_200, stopLossTicks: 900 });
    d.ok({
      type: 'submitLeverEntry',
      userId: 8,
      marketId: ETH_USDT,
      side: 2,
      share: 3,
      multiple: 5,
      targetTicks: 110,
    });
    d.ok({ type: 'openLeverPosition', userId: 8, marketId: ETH_USDT, side: 1, share: 1, multiple: 20 });
    const restored = Engine.restore(d.engine.snapshot());
    restored.checkInvariants();
    expect(restored.stateHash()).toBe(d.engine.stateHash());
    expect(restored.lever.positions(8)).toEqual(d.engine.lever.positions(8));
  });

  it('a restore taken after a transfer out acts on the next mark exactly as the live engine', () => {
    const d = leverSetUp();
    d.fund(7, 12_023n);
    d.ok({ type: 'openLeverPosition', userId: 7, marketId: BTC_USDT, side: 1, share: 2, multiple: 10 });
    d.mark(BTC_USDT, 950);
    d.ok({ type: 'setLeverStops', userId: 7, positionId: 1, takeProfitTicks: 0, stopLossTicks: 870 });
    d.ok({
      type: 'transfer',
      userId: 7,
      currencyId: USDT,
      fromWallet: 'lever',
      toWallet: 'change',
      amount: 8_980n,
    });
    expect(d.engine.lever.position(1)?.liquidationTicks).toBe(859);
    const restored = Engine.restore(d.engine.snapshot());
    // One gap crosses both the stop-loss (870) and the liquidation price (859): the stop acts first.
    const envelope = {
      seq: d.seq + 1,
      timeMs: d.timeMs + 1,
      command: {
        type: 'recordPriceSamples' as const,
        maxAgeMs: 10_000,
        minSources: 1,
        headIntervalMs: 60_000,
        samples: [[BTC_USDT, [['test', 850, d.timeMs + 1]]]] as [number, [string, number, number][]][],
      },
    };
    const live = d.engine.apply(envelope);
    const again = restored.apply(envelope);
    expect(encodeEvents(again.events)).toBe(encodeEvents(live.events));
    expect(ofType(live.events, 'leverPositionClosed').map((e) => e.reason)).toEqual(['stopLoss']);
    expect(restored.stateHash()).toBe(d.engine.stateHash());
  });
});

describe('codec and codes', () => {
  it('round-trips every lever event and reply with its amounts as bigint', () => {
    const d = leverSetUp({ liquidationFeePpm: 1_000 });
    d.fundSystem('insurance', 5_000n);
    d.fund(7, 3_000n);
    const replies: unknown[] = [];
    const keep = (outcome: { reply?: unknown }) => replies.push(outcome.reply);
    keep(d.ok({ type: 'openLeverPosition', userId: 7, marketId: BTC_USDT, side: 1, share: 2, multiple: 10 }));
    keep(d.ok({ type: 'openLeverPosition', userId: 7, marketId: BTC_USDT, side: 2, share: 1, multiple: 20 }));
    keep(d.ok({ type: 'setLeverStops', userId: 7, positionId: 2, takeProfitTicks: 900, stopLossTicks: 0 }));
    keep(
      d.ok({
        type: 'submitLeverEntry',
        userId: 7,
        marketId: ETH_USDT,
        side: 1,
        share: 1,
        multiple: 5,
        targetTicks: 90,
      }),
    );
    keep(d.ok({ type: 'revokeLeverEntry', userId: 7, positionId: 3 }));
    d.timeMs += DAY;
    d.mark(BTC_USDT, 1_000);
    keep(d.ok({ type: 'chargeLeverOvernight', day: Math.floor(d.timeMs / DAY) }));
    d.mark(BTC_USDT, 700); // a gap: the short's take-profit closes it, the long is liquidated with a shortfall
    const types = new Set(d.events.map((event) => event.type));
    for (const type of [
      'leverPairConfigured',
      'leverPositionOpened',
      'leverStopsSet',
      'leverEntryPlaced',
      'leverEntryRevoked',
      'leverOvernightCharged',
      'leverPositionClosed',
      'leverLiquidated',
    ])
      expect(types.has(type as EngineEvent['type']), type).toBe(true);
    // short: +2990 and its margin 495 back; long: margin 1991 and the balance 3952 pay 5943 of the 6020 loss
    expect(ofType(d.events, 'leverLiquidated')[0]).toMatchObject({
      equity: -77n,
      shortfall: 77n,
      liquidationFee: 0n,
    });
    const lever = d.events.filter((event) => event.type.startsWith('lever'));
    expect(decodeEvents(encodeEvents(lever))).toEqual(lever);
    for (const reply of replies) {
      const envelope = {
        seq: 1,
        timeMs: 1,
        command: { type: 'chargeLeverOvernight' as const, day: 1 },
        reply,
      };
      expect(decodeEnvelope(encodeEnvelope(envelope))).toEqual(envelope);
    }
    expect(resultCodeName(LeverResultCode.leverExposureLimit)).toBe('leverExposureLimit');
    expect(resultCodeName(LeverResultCode.leverRiskTooHigh)).toBe('leverRiskTooHigh');
  });
});
