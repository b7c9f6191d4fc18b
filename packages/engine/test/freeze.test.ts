// User freezes: every command of every area declares which kinds stop it; the kernel refuses exactly those
// for a frozen user, before the handler, and lets the closing ones through; freezes replay and round-trip
// through snapshots, and a snapshot from before freezes existed loads as "nobody frozen".
import { describe, expect, it } from 'vitest';
import {
  AREAS,
  Engine,
  FREEZE_KINDS,
  FreezeResultCode,
  NOT_FROZEN,
  ResultCode,
  decodeEnvelope,
  encodeEnvelope,
} from '../src/index.ts';
import type { Command, FreezeKind } from '../src/index.ts';
import { BTC_USDT, USDT, leverSetUp } from './lever-driver.ts';

const USER = 1;
const MERCHANT = 3;
const FREEZE_CODES = new Set<number>([
  FreezeResultCode.userFrozenForTrading,
  FreezeResultCode.userFrozenForWithdrawals,
  FreezeResultCode.userFrozenFully,
]);
const CODE_OF: Record<Exclude<FreezeKind, 'full'>, number> = {
  trading: FreezeResultCode.userFrozenForTrading,
  withdrawals: FreezeResultCode.userFrozenForWithdrawals,
};

const adTerms = {
  currencyId: USDT,
  fiat: 'CNY',
  priceCents: 720n,
  floatBp: null,
  minFiatCents: 100n,
  maxFiatCents: 10_000_000n,
  windowMs: 15 * 60_000,
  methodIds: [1],
  terms: '',
};

/**
 * Lever pairs and marks (lever-driver), a P2P merchant with a sell ad (1) and a buy ad (2), and a pending
 * withdrawal (1) of the user. Every case below is applied to a copy of this state.
 */
function baseState() {
  const d = leverSetUp();
  d.fund(USER, 1_000_000n);
  d.ok({ type: 'deposit', userId: USER, currencyId: USDT, amount: 1_000_000n });
  d.ok({ type: 'deposit', userId: MERCHANT, currencyId: USDT, amount: 1_000_000n });
  d.ok({ type: 'p2pSetMerchant', userId: MERCHANT, approved: true, acceptor: false });
  d.ok({ type: 'p2pPostAd', userId: MERCHANT, side: 'sell', total: 10_000n, ...adTerms });
  d.ok({ type: 'p2pPostAd', userId: MERCHANT, side: 'buy', total: 10_000n, ...adTerms });
  d.ok({ type: 'requestWithdrawal', userId: USER, currencyId: USDT, amount: 10n, feeAmount: 1n });
  return d;
}

/**
 * What the rule is, stated independently of the areas' declarations: each command acted on by the frozen
 * user, with the kinds (besides `full`, which stops anything any kind stops) that must refuse it.
 */
const CASES: [Command, readonly FreezeKind[]][] = [
  [{ type: 'addCurrency', currencyId: 9, code: 'X', scale: 0 }, []],
  [{ type: 'deposit', userId: USER, currencyId: USDT, amount: 5n }, []],
  [{ type: 'systemFund', owner: 'house', currencyId: USDT, amount: 5n }, []],
  [{ type: 'houseTransfer', userId: USER, currencyId: USDT, amount: 5n, memo: 'demo' }, []],
  [
    { type: 'transfer', userId: USER, currencyId: USDT, fromWallet: 'change', toWallet: 'micro', amount: 5n },
    ['full'],
  ],
  [
    {
      type: 'systemTransfer',
      owner: 'house',
      currencyId: USDT,
      fromWallet: 'lever',
      toWallet: 'change',
      amount: 5n,
    },
    [],
  ],
  [
    { type: 'requestWithdrawal', userId: USER, currencyId: USDT, amount: 10n, feeAmount: 1n },
    ['withdrawals'],
  ],
  [{ type: 'completeWithdrawal', withdrawalId: 1 }, ['withdrawals']],
  [{ type: 'rejectWithdrawal', withdrawalId: 1 }, []],
  [
    {
      type: 'flashExchange',
      userId: USER,
      fromCurrencyId: USDT,
      toCurrencyId: 1,
      amount: 10n,
      payoutAmount: 1n,
      feeAmount: 0n,
    },
    ['trading'],
  ],
  [
    {
      type: 'addMarket',
      marketId: 9,
      baseCurrencyId: 3,
      quoteCurrencyId: 1,
      tickSize: '1',
      lotSize: '1',
      minimumLots: 1,
      makerFeePpm: 0,
      takerFeePpm: 0,
    },
    [],
  ],
  [{ type: 'setMarketFees', marketId: BTC_USDT, makerFeePpm: 0, takerFeePpm: 1 }, []],
  [{ type: 'setMarketBand', marketId: BTC_USDT, bandPpm: 20_000 }, []],
  [
    {
      type: 'placeOrder',
      owner: USER,
      marketId: BTC_USDT,
      side: 'buy',
      kind: 'limit',
      priceTicks: 900,
      quantityLots: 1,
    },
    ['trading'],
  ],
  [{ type: 'cancelOrder', owner: USER, orderId: 1 }, []],
  [{ type: 'cancelAllOrders', owner: USER }, []],
  [{ type: 'recordIndexPrice', marketId: BTC_USDT, priceTicks: 1_000 }, []],
  [{ type: 'recordPriceSamples', maxAgeMs: 10_000, minSources: 1, headIntervalMs: 60_000, samples: [] }, []],
  [{ type: 'setMicroSeconds', options: [[30, 8_500]] }, []],
  [
    {
      type: 'setMicroCurrency',
      currencyId: USDT,
      feeBp: 100,
      minStake: 10n,
      maxStake: 1_000n,
      presets: [10n],
      maxOpenOrders: 5,
    },
    [],
  ],
  [{ type: 'setMicroExposureCap', marketId: BTC_USDT, currencyId: USDT, exposureCap: 10n ** 9n }, []],
  [{ type: 'setMicroStaleness', maxSampleAgeMs: 3_000 }, []],
  [
    {
      type: 'submitMicroOrder',
      userId: USER,
      marketId: BTC_USDT,
      currencyId: USDT,
      direction: 1,
      seconds: 30,
      stake: 10n,
    },
    ['trading'],
  ],
  [
    { type: 'openLeverPosition', userId: USER, marketId: BTC_USDT, side: 1, share: 2, multiple: 10 },
    ['trading'],
  ],
  [
    {
      type: 'submitLeverEntry',
      userId: USER,
      marketId: BTC_USDT,
      side: 1,
      share: 2,
      multiple: 10,
      targetTicks: 900,
    },
    ['trading'],
  ],
  [{ type: 'revokeLeverEntry', userId: USER, positionId: 1 }, []],
  [{ type: 'closeLeverPosition', userId: USER, positionId: 1 }, []],
  [{ type: 'closeLeverPositions', userId: USER, which: 0 }, []],
  [{ type: 'setLeverStops', userId: USER, positionId: 1, takeProfitTicks: 0, stopLossTicks: 0 }, []],
  [{ type: 'chargeLeverOvernight', day: 20_000 }, []],
  [{ type: 'setLeverPair', marketId: 2, enabled: false } as unknown as Command, []],
  [{ type: 'createProduct', kind: 'miner', terms: {}, details: {} } as unknown as Command, []],
  [{ type: 'editProduct', productId: 1, terms: {}, details: {} } as unknown as Command, []],
  [{ type: 'openProduct', productId: 1 }, []],
  [{ type: 'closeProduct', productId: 1 }, []],
  [{ type: 'recordMinerRate', productId: 1, day: 20_000, perUnit: 2n }, []],
  [{ type: 'buyIco', userId: USER, productId: 1, quantity: 1 }, ['trading']],
  [{ type: 'buyMiner', userId: USER, productId: 1, quantity: 1 }, ['trading']],
  [{ type: 'stakeDefi', userId: USER, productId: 1, quantity: 1 }, ['trading']],
  [{ type: 'extractMinerEarnings', userId: USER, holdingId: 1, amount: 1n }, []],
  [{ type: 'exitDefiStake', userId: USER, holdingId: 1 }, []],
  [{ type: 'accrueProductDay', productId: 1, day: 20_000 }, []],
  [{ type: 'matureProductHoldings', productId: 1, limit: 10 }, []],
  [{ type: 'p2pConfigure', makerFeeBp: 0, takerFeeBp: 0, appealWaitMs: 600_000, cancellationsPerDay: 3 }, []],
  [{ type: 'p2pSetReference', currencyId: USDT, fiat: 'CNY', priceCents: 720n }, []],
  [{ type: 'p2pSetMerchant', userId: USER, approved: true, acceptor: false }, []],
  [{ type: 'p2pPostAd', userId: USER, side: 'sell', total: 100n, ...adTerms }, ['trading', 'withdrawals']],
  [{ type: 'p2pPostAd', userId: USER, side: 'buy', total: 100n, ...adTerms }, ['trading']],
  [{ type: 'p2pEditAd', userId: USER, adId: 1, ...adTerms }, ['trading']],
  [{ type: 'p2pSetAdStatus', userId: USER, adId: 1, status: 'online' }, ['trading', 'withdrawals']],
  [{ type: 'p2pSetAdStatus', userId: USER, adId: 2, status: 'online' }, ['trading']],
  [{ type: 'p2pSetAdStatus', userId: USER, adId: 1, status: 'paused' }, []],
  [{ type: 'p2pSetAdStatus', userId: USER, adId: 1, status: 'closed' }, []],
  // Taking the sell ad buys coins; taking the buy ad sells them.
  [{ type: 'p2pTakeAd', userId: USER, adId: 1, amount: 100n, methodId: 1 }, ['trading']],
  [{ type: 'p2pTakeAd', userId: USER, adId: 2, amount: 100n, methodId: 1 }, ['trading', 'withdrawals']],
  [{ type: 'p2pMarkPaid', userId: USER, orderId: 1 }, []],
  [{ type: 'p2pRelease', userId: USER, orderId: 1 }, ['withdrawals']],
  [{ type: 'p2pCancel', userId: USER, orderId: 1 }, []],
  [{ type: 'p2pAppeal', userId: USER, orderId: 1 }, []],
  [{ type: 'p2pReject', userId: USER, orderId: 1 }, []],
  [{ type: 'p2pDecide', orderId: 1, to: 'buyer', arbiterId: 9 }, []],
  [{ type: 'p2pTick' }, []],
  [{ type: 'setUserFreeze', userId: USER, kind: 'trading', frozen: false }, []],
  [{ type: 'startLog', origin: 'example/log', checkpointIntervalMs: 1_000 }, []],
  [{ type: 'captureLiabilities', snapshotId: 'd1' }, []],
  [
    {
      type: 'publishLiabilities',
      snapshotId: 'd1',
      root: '00'.repeat(32),
      leafCount: 0,
      columns: [],
      totals: [],
    },
    [],
  ],
];

describe('freeze rules', () => {
  it('every command of every area declares its freeze rule (stopped by some kinds, or explicitly none)', () => {
    const missing: string[] = [];
    for (const area of AREAS) {
      const rules = (area as { freezes?: Record<string, unknown> }).freezes ?? {};
      for (const type of Object.keys(area.commands)) {
        const rule = rules[type];
        if (rule !== NOT_FROZEN && (typeof rule !== 'object' || rule === null))
          missing.push(`${area.name}.${type}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('the cases of this test cover every command type', () => {
    const types = new Set(AREAS.flatMap((area) => Object.keys(area.commands)));
    expect(new Set(CASES.map(([command]) => command.type))).toEqual(types);
  });

  const base = baseState();
  const baseText = base.engine.snapshot();

  function applyFrozen(kind: FreezeKind | null, command: Command): number {
    const engine = Engine.restore(baseText);
    let seq = base.seq;
    const timeMs = base.timeMs + 1;
    if (kind !== null) {
      seq += 1;
      const set = engine.apply({
        seq,
        timeMs,
        command: { type: 'setUserFreeze', userId: USER, kind, frozen: true },
      });
      expect(set.code).toBe(ResultCode.ok);
    }
    seq += 1;
    const outcome = engine.apply({ seq, timeMs, command });
    engine.checkInvariants();
    return outcome.code;
  }

  it.each(
    CASES.map(
      ([command, kinds]) =>
        [
          `${command.type} ${JSON.stringify(command, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value)).slice(0, 60)}`,
          command,
          kinds,
        ] as const,
    ),
  )('%s: refused by exactly its kinds, for the frozen user only', (_name, command, kinds) => {
    expect(FREEZE_CODES.has(applyFrozen(null, command))).toBe(false);
    for (const kind of FREEZE_KINDS) {
      const code = applyFrozen(kind, command);
      if (kind === 'full') {
        expect(code === FreezeResultCode.userFrozenFully).toBe(kinds.length > 0);
        if (kinds.length === 0) expect(FREEZE_CODES.has(code)).toBe(false);
      } else if (kinds.includes(kind)) {
        expect(code).toBe(CODE_OF[kind]);
      } else {
        expect(FREEZE_CODES.has(code)).toBe(false);
      }
    }
  });

  it('a frozen user can still cancel, close, confirm a payment and receive; a lift restores trading', () => {
    const d = baseState();
    const order = d.ok({
      type: 'placeOrder',
      owner: USER,
      marketId: BTC_USDT,
      side: 'buy',
      kind: 'limit',
      priceTicks: 900,
      quantityLots: 1,
    });
    const orderId = (order.reply as { orderId: number }).orderId;
    d.ok({ type: 'openLeverPosition', userId: USER, marketId: BTC_USDT, side: 1, share: 2, multiple: 10 });
    // The user buys from the merchant's sell ad: an unpaid order the user must still be able to confirm.
    const take = d.ok({ type: 'p2pTakeAd', userId: USER, adId: 1, amount: 100n, methodId: 1 });
    const p2pOrderId = (take.reply as { orderId: number }).orderId;
    for (const kind of FREEZE_KINDS) d.ok({ type: 'setUserFreeze', userId: USER, kind, frozen: true });
    expect(d.engine.freeze.kindsOf(USER)).toEqual(['trading', 'withdrawals', 'full']);

    expect(
      d.apply({
        type: 'openLeverPosition',
        userId: USER,
        marketId: BTC_USDT,
        side: 1,
        share: 2,
        multiple: 10,
      }).code,
    ).toBe(FreezeResultCode.userFrozenFully);
    d.ok({ type: 'cancelOrder', owner: USER, orderId });
    d.ok({ type: 'closeLeverPosition', userId: USER, positionId: 1 });
    d.ok({ type: 'p2pMarkPaid', userId: USER, orderId: p2pOrderId });
    d.ok({ type: 'deposit', userId: USER, currencyId: USDT, amount: 7n });
    // The merchant, frozen for withdrawals, cannot release the coins; an arbiter's decision still settles.
    d.ok({ type: 'setUserFreeze', userId: MERCHANT, kind: 'withdrawals', frozen: true });
    expect(d.apply({ type: 'p2pRelease', userId: MERCHANT, orderId: p2pOrderId }).code).toBe(
      FreezeResultCode.userFrozenForWithdrawals,
    );
    // A freeze for trading alone does not stop the merchant's release of an order already paid.
    d.ok({ type: 'setUserFreeze', userId: MERCHANT, kind: 'withdrawals', frozen: false });
    d.ok({ type: 'setUserFreeze', userId: MERCHANT, kind: 'trading', frozen: true });
    d.ok({ type: 'p2pRelease', userId: MERCHANT, orderId: p2pOrderId });
    // The merchant, frozen for trading, cannot post; a user frozen for withdrawals only still trades.
    expect(d.apply({ type: 'p2pPostAd', userId: MERCHANT, side: 'buy', total: 10n, ...adTerms }).code).toBe(
      FreezeResultCode.userFrozenForTrading,
    );
    for (const kind of ['full', 'trading'] as const)
      d.ok({ type: 'setUserFreeze', userId: USER, kind, frozen: false });
    expect(d.engine.freeze.kindsOf(USER)).toEqual(['withdrawals']);
    d.ok({ type: 'openLeverPosition', userId: USER, marketId: BTC_USDT, side: 1, share: 2, multiple: 10 });
    expect(
      d.apply({ type: 'requestWithdrawal', userId: USER, currencyId: USDT, amount: 10n, feeAmount: 1n }).code,
    ).toBe(FreezeResultCode.userFrozenForWithdrawals);
    d.ok({ type: 'setUserFreeze', userId: USER, kind: 'withdrawals', frozen: false });
    d.ok({ type: 'requestWithdrawal', userId: USER, currencyId: USDT, amount: 10n, feeAmount: 1n });
    expect(d.engine.freeze.frozenUsers()).toEqual([{ userId: MERCHANT, kinds: ['trading'] }]);
  });

  it('refuses a freeze command that names no user or kind, changing nothing', () => {
    const d = baseState();
    const hash = d.engine.stateHash();
    expect(d.apply({ type: 'setUserFreeze', userId: 0, kind: 'trading', frozen: true }).code).toBe(
      ResultCode.invalidOwner,
    );
    expect(
      d.apply({ type: 'setUserFreeze', userId: USER, kind: 'all', frozen: true } as unknown as Command).code,
    ).toBe(FreezeResultCode.invalidFreezeKind);
    expect(d.engine.freeze.frozenUsers()).toEqual([]);
    expect(JSON.parse(d.engine.snapshot()).freezes).toBeUndefined();
    expect(hash).not.toBe(''); // lastSeq moved, so only the section is compared
  });
});

describe('freeze state', () => {
  function frozenJournal() {
    const d = baseState();
    d.ok({ type: 'setUserFreeze', userId: USER, kind: 'trading', frozen: true });
    d.ok({ type: 'setUserFreeze', userId: MERCHANT, kind: 'withdrawals', frozen: true });
    d.apply({
      type: 'placeOrder',
      owner: USER,
      marketId: BTC_USDT,
      side: 'buy',
      kind: 'limit',
      priceTicks: 9,
      quantityLots: 1,
    });
    d.apply({ type: 'p2pPostAd', userId: MERCHANT, side: 'sell', total: 10n, ...adTerms });
    return d;
  }

  it('a replay of the journal gives the same refusals and the same state hash', () => {
    const d = frozenJournal();
    const replayed = Engine.create();
    const codes = d.envelopes.map((envelope) => replayed.replay(decodeEnvelope(encodeEnvelope(envelope))));
    expect(codes.slice(-2)).toEqual([
      FreezeResultCode.userFrozenForTrading,
      FreezeResultCode.userFrozenForWithdrawals,
    ]);
    expect(replayed.stateHash()).toBe(d.engine.stateHash());
    expect(replayed.freeze.frozenUsers()).toEqual(d.engine.freeze.frozenUsers());
  });

  it('round-trips through a snapshot, and the restored engine refuses the same commands', () => {
    const d = frozenJournal();
    const text = d.engine.snapshot();
    expect(JSON.parse(text).freezes).toEqual([
      [USER, ['trading']],
      [MERCHANT, ['withdrawals']],
    ]);
    const restored = Engine.restore(text);
    expect(restored.stateHash()).toBe(d.engine.stateHash());
    const outcome = restored.apply({
      seq: d.seq + 1,
      timeMs: d.timeMs + 1,
      command: {
        type: 'submitMicroOrder',
        userId: USER,
        marketId: BTC_USDT,
        currencyId: USDT,
        direction: 1,
        seconds: 30,
        stake: 10n,
      },
    });
    expect(outcome.code).toBe(FreezeResultCode.userFrozenForTrading);
  });

  it('writes no section while nobody is frozen, so older snapshots load as "no freezes" and keep their hash', () => {
    const d = baseState();
    const before = d.engine.snapshot();
    expect(JSON.parse(before).freezes).toBeUndefined();
    const restored = Engine.restore(before);
    expect(restored.freeze.frozenUsers()).toEqual([]);
    expect(restored.stateHash()).toBe(d.engine.stateHash());
    d.ok({ type: 'setUserFreeze', userId: USER, kind: 'full', frozen: true });
    d.ok({ type: 'setUserFreeze', userId: USER, kind: 'full', frozen: false });
    const after = JSON.parse(d.engine.snapshot()) as Record<string, unknown>;
    expect(after.freezes).toBeUndefined();
    expect({ ...after, lastSeq: 0, timeMs: 0 }).toEqual({ ...JSON.parse(before), lastSeq: 0, timeMs: 0 });
  });

  it('setting a kind already set, or lifting one not set, is accepted and changes nothing', () => {
    const d = baseState();
    const lift = d.ok({ type: 'setUserFreeze', userId: USER, kind: 'trading', frozen: false });
    expect(lift.events).toEqual([]);
    d.ok({ type: 'setUserFreeze', userId: USER, kind: 'trading', frozen: true });
    const again = d.ok({ type: 'setUserFreeze', userId: USER, kind: 'trading', frozen: true });
    expect(again.events).toEqual([]);
    expect(again.reply).toEqual({ userId: USER, kinds: ['trading'] });
  });
});
