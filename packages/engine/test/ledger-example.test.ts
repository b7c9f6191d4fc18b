// The worked example of docs/ledger.md, replayed: every transfer and balance in the document must be what
// the engine does.
import { describe, expect, it } from 'vitest';
import { Engine, ReasonCode } from '../src/index.ts';
import type { BalanceChangedEvent, Command, Outcome } from '../src/index.ts';

const BTC = 1;
const USDT = 2;

describe('the worked example in the ledger documentation', () => {
  const engine = Engine.create();
  let seq = 0;
  const apply = (command: Command): Outcome => {
    seq += 1;
    const outcome = engine.apply({ seq, timeMs: 1_700_000_000_000 + seq, command });
    engine.checkInvariants();
    expect(outcome.code).toBe(0);
    return outcome;
  };
  const rows = (outcome: Outcome) =>
    outcome.events
      .filter((event): event is BalanceChangedEvent => event.type === 'balanceChanged')
      .map((event) => [
        event.transferId,
        event.owner,
        event.currencyId,
        event.availableBefore,
        event.availableAfter,
        event.lockedBefore,
        event.lockedAfter,
        event.reason,
      ]);

  apply({ type: 'addCurrency', currencyId: BTC, code: 'BTC', scale: 8 });
  apply({ type: 'addCurrency', currencyId: USDT, code: 'USDT', scale: 6 });
  apply({
    type: 'addMarket',
    marketId: 1,
    baseCurrencyId: BTC,
    quoteCurrencyId: USDT,
    tickSize: '0.01',
    lotSize: '0.001',
    minimumLots: 1,
    makerFeePpm: 1000,
    takerFeePpm: 2000,
  });

  it('derives 100,000 sat per lot and 10 USDT minor units per tick and lot', () => {
    expect(engine.spot.market(1)).toMatchObject({ lotBaseMinor: 100_000n, quoteMinorPerTickLot: 10n });
  });

  it('steps 1 to 4 post exactly the documented transfers', () => {
    const { deposit, orderHold, tradeSettlement, orderPriceImprovement, tradeFee, orderRelease } = ReasonCode;
    expect([
      ...rows(apply({ type: 'deposit', userId: 1, currencyId: USDT, amount: 10_000_000_000n })),
      ...rows(apply({ type: 'deposit', userId: 2, currencyId: BTC, amount: 50_000_000n })),
    ]).toEqual([
      [1, 'outside', USDT, 0n, -10_000_000_000n, 0n, 0n, deposit],
      [1, 1, USDT, 0n, 10_000_000_000n, 0n, 0n, deposit],
      [2, 'outside', BTC, 0n, -50_000_000n, 0n, 0n, deposit],
      [2, 2, BTC, 0n, 50_000_000n, 0n, 0n, deposit],
    ]);
    expect(
      rows(
        apply({
          type: 'placeOrder',
          owner: 2,
          marketId: 1,
          side: 'sell',
          kind: 'limit',
          priceTicks: 3_000_000,
          quantityLots: 250,
        }),
      ),
    ).toEqual([[3, 2, BTC, 50_000_000n, 25_000_000n, 0n, 25_000_000n, orderHold]]);
    const buy = apply({
      type: 'placeOrder',
      owner: 1,
      marketId: 1,
      side: 'buy',
      kind: 'limit',
      priceTicks: 3_005_000,
      quantityLots: 100,
    });
    expect(buy.events.map((event) => event.type)).toEqual([
      'orderAccepted',
      'balanceChanged',
      'trade',
      ...Array<string>(9).fill('balanceChanged'),
      'orderDone',
    ]);
    expect(rows(buy)).toEqual([
      [4, 1, USDT, 10_000_000_000n, 6_995_000_000n, 0n, 3_005_000_000n, orderHold],
      [5, 1, USDT, 6_995_000_000n, 6_995_000_000n, 3_005_000_000n, 5_000_000n, tradeSettlement],
      [5, 2, USDT, 0n, 3_000_000_000n, 0n, 0n, tradeSettlement],
      [6, 2, BTC, 25_000_000n, 25_000_000n, 25_000_000n, 15_000_000n, tradeSettlement],
      [6, 1, BTC, 0n, 10_000_000n, 0n, 0n, tradeSettlement],
      [7, 1, USDT, 6_995_000_000n, 7_000_000_000n, 5_000_000n, 0n, orderPriceImprovement],
      [8, 2, USDT, 3_000_000_000n, 2_997_000_000n, 0n, 0n, tradeFee],
      [8, 'fees', USDT, 0n, 3_000_000n, 0n, 0n, tradeFee],
      [9, 1, BTC, 10_000_000n, 9_980_000n, 0n, 0n, tradeFee],
      [9, 'fees', BTC, 0n, 20_000n, 0n, 0n, tradeFee],
    ]);
    expect(buy.events.find((event) => event.type === 'trade')).toMatchObject({
      quoteAmount: 3_000_000_000n,
      baseAmount: 10_000_000n,
      makerFee: 3_000_000n,
      takerFee: 20_000n,
    });
    expect(rows(apply({ type: 'cancelOrder', owner: 2, orderId: 1 }))).toEqual([
      [10, 2, BTC, 25_000_000n, 40_000_000n, 15_000_000n, 0n, orderRelease],
    ]);
  });

  it('ends with the documented balances, each currency summing to zero', () => {
    const table = engine.ledger
      .accounts()
      .map((account) => [account.owner, account.currencyId, account.available, account.locked]);
    expect(table).toEqual([
      ['outside', BTC, -50_000_000n, 0n],
      ['outside', USDT, -10_000_000_000n, 0n],
      ['fees', BTC, 20_000n, 0n],
      ['fees', USDT, 3_000_000n, 0n],
      [1, BTC, 9_980_000n, 0n],
      [1, USDT, 7_000_000_000n, 0n],
      [2, BTC, 40_000_000n, 0n],
      [2, USDT, 2_997_000_000n, 0n],
    ]);
  });
});
