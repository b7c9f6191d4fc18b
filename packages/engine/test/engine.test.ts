import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  BIGINT_FIELDS,
  Engine,
  EngineInvariantError,
  ResultCode,
  decodeEnvelope,
  decodeEvents,
  encodeEnvelope,
  encodeEvents,
  resultCodeCategory,
  resultCodeName,
  sha256HexOfText,
} from '../src/index.ts';
import type { Command, CommandType, EngineEvent, EngineEventType, Envelope } from '../src/index.ts';
import { BASE, MARKET, QUOTE, TestExchange } from './test-exchange.ts';

function tradedExchange(): TestExchange {
  const exchange = new TestExchange().setUpSimpleMarket(1000, 2000);
  exchange.fund(1, 1000n, 100_000n).fund(2, 1000n, 100_000n);
  exchange.limit(1, 'sell', 101, 10);
  exchange.limit(2, 'buy', 99, 10);
  exchange.limit(2, 'buy', 102, 4);
  exchange.ok({ type: 'requestWithdrawal', userId: 1, currencyId: QUOTE, amount: 50n, feeAmount: 1n }, 'w-1');
  return exchange;
}

describe('envelopes and sequence numbers', () => {
  it('refuses a sequence number that does not increase, and does not consume it', () => {
    const engine = Engine.create();
    const add: Command = { type: 'addCurrency', currencyId: 1, code: 'BTC', scale: 8 };
    expect(engine.apply({ seq: 5, timeMs: 10, command: add }).code).toBe(0);
    expect(engine.apply({ seq: 5, timeMs: 11, command: add })).toEqual({
      seq: 5,
      code: ResultCode.sequenceNotIncreasing,
      events: [],
    });
    expect(engine.apply({ seq: 4, timeMs: 11, command: add }).code).toBe(ResultCode.sequenceNotIncreasing);
    expect(engine.lastSeq).toBe(5);
    // A refused command still consumes its (valid) sequence number: the journal holds it.
    expect(engine.apply({ seq: 9, timeMs: 12, command: add }).code).toBe(ResultCode.currencyExists);
    expect(engine.lastSeq).toBe(9);
  });

  it.each([
    ['null', null],
    ['a string', 'envelope'],
    ['a zero sequence number', { seq: 0, timeMs: 1, command: { type: 'addCurrency' } }],
    ['a fractional sequence number', { seq: 1.5, timeMs: 1, command: { type: 'addCurrency' } }],
    ['a negative time', { seq: 1, timeMs: -1, command: { type: 'addCurrency' } }],
    ['a time given as text', { seq: 1, timeMs: '1', command: { type: 'addCurrency' } }],
  ])('refuses an envelope that is %s without throwing', (_name, envelope) => {
    const engine = Engine.create();
    expect(engine.apply(envelope as unknown as Envelope).code).toBe(ResultCode.invalidEnvelope);
    expect(engine.lastSeq).toBe(0);
  });

  it.each([
    ['null', null],
    ['an array', []],
    ['an unknown type', { type: 'toString' }],
    ['a command with missing fields', { type: 'placeOrder' }],
    ['a deposit with no fields', { type: 'deposit' }],
    ['a cancel with an object id', { type: 'cancelOrder', owner: 1, orderId: {} }],
  ])('refuses a command that is %s without throwing', (_name, command) => {
    const engine = Engine.create();
    const outcome = engine.apply({ seq: 1, timeMs: 1, command: command as unknown as Command });
    expect(outcome.code).not.toBe(0);
    expect(outcome.events).toEqual([]);
  });

  it('never lets time run backwards', () => {
    const engine = Engine.create();
    engine.apply({
      seq: 1,
      timeMs: 5000,
      command: { type: 'addCurrency', currencyId: 1, code: 'A', scale: 0 },
    });
    engine.apply({
      seq: 2,
      timeMs: 10,
      command: { type: 'addCurrency', currencyId: 2, code: 'B', scale: 0 },
    });
    expect(engine.timeMs).toBe(5000);
  });
});

describe('idempotency', () => {
  const deposit: Command = { type: 'deposit', userId: 7, currencyId: QUOTE, amount: 10n };

  it('applies a key once and returns the first outcome, marked duplicate, with no events', () => {
    const exchange = new TestExchange().setUpSimpleMarket();
    const first = exchange.ok(deposit, 'dep-1');
    const again = exchange.apply(deposit, 'dep-1');
    expect(again).toEqual({
      seq: exchange.seq,
      code: 0,
      events: [],
      reply: first.reply,
      duplicate: true,
      originalSeq: first.seq,
    });
    expect(exchange.change(7, QUOTE)).toEqual([10n, 0n]);
  });

  it('scopes keys to the owner: two users may use the same key', () => {
    const exchange = new TestExchange().setUpSimpleMarket();
    exchange.ok(deposit, 'same');
    expect(exchange.ok({ ...deposit, userId: 8 }, 'same').duplicate).toBeUndefined();
    expect(exchange.change(8, QUOTE)).toEqual([10n, 0n]);
  });

  it('refuses a key reused for another kind of command', () => {
    const exchange = new TestExchange().setUpSimpleMarket();
    exchange.ok(deposit, 'k');
    const outcome = exchange.apply(
      { type: 'transfer', userId: 7, currencyId: QUOTE, fromWallet: 'change', toWallet: 'lever', amount: 1n },
      'k',
    );
    expect(outcome.code).toBe(ResultCode.idempotencyKeyReused);
  });

  it('does not remember refused commands, so a retry can succeed later', () => {
    const exchange = new TestExchange().setUpSimpleMarket();
    const withdraw: Command = {
      type: 'requestWithdrawal',
      userId: 7,
      currencyId: QUOTE,
      amount: 10n,
      feeAmount: 0n,
    };
    expect(exchange.apply(withdraw, 'w').code).toBe(ResultCode.insufficientFunds);
    exchange.ok(deposit);
    expect(exchange.apply(withdraw, 'w').code).toBe(0);
    expect(exchange.apply(withdraw, 'w').duplicate).toBe(true);
  });

  it('forgets keys after the window of command time, deterministically', () => {
    const exchange = new TestExchange({ idempotencyWindowMs: 1000 }).setUpSimpleMarket();
    exchange.ok(deposit, 'k');
    expect(exchange.apply(deposit, 'k', 999).duplicate).toBe(true);
    expect(exchange.apply(deposit, 'k', 1).duplicate).toBeUndefined();
    expect(exchange.change(7, QUOTE)).toEqual([20n, 0n]);
  });

  it('keeps at most the configured number of keys, evicting the oldest', () => {
    const exchange = new TestExchange({ idempotencyMaxKeys: 2 }).setUpSimpleMarket();
    for (const key of ['a', 'b', 'c']) exchange.ok(deposit, key);
    expect(exchange.engine.stats().idempotencyKeys).toBe(2);
    expect(exchange.apply(deposit, 'c').duplicate).toBe(true);
    expect(exchange.apply(deposit, 'a').duplicate).toBeUndefined();
  });

  it('refuses an empty or overlong key', () => {
    const exchange = new TestExchange().setUpSimpleMarket();
    expect(exchange.apply(deposit, '').code).toBe(ResultCode.invalidIdempotencyKey);
    expect(exchange.apply(deposit, 'k'.repeat(129)).code).toBe(ResultCode.invalidIdempotencyKey);
  });

  it('keeps keys across snapshot and restore, and in the state hash', () => {
    const exchange = new TestExchange().setUpSimpleMarket();
    const before = exchange.engine.stateHash();
    exchange.ok(deposit, 'k');
    const restored = Engine.restore(exchange.engine.snapshot());
    const outcome = restored.apply({
      seq: exchange.seq + 1,
      timeMs: exchange.timeMs + 1,
      command: deposit,
      idempotencyKey: 'k',
    });
    expect(outcome.duplicate).toBe(true);
    expect(outcome.reply).toEqual({ transferId: 1 });
    expect(before).not.toBe(exchange.engine.stateHash());
  });
});

describe('snapshot, restore and state hash', () => {
  it('restores to the same text and hash, on either book', () => {
    const exchange = tradedExchange();
    const text = exchange.engine.snapshot();
    expect(Engine.restore(text).snapshot()).toBe(text);
    expect(Engine.restore(text, { book: 'reference' }).stateHash()).toBe(exchange.engine.stateHash());
  });

  it('behaves the same after a restore as the engine it came from', () => {
    const exchange = tradedExchange();
    const restored = Engine.restore(exchange.engine.snapshot());
    const commands: Command[] = [
      {
        type: 'placeOrder',
        owner: 2,
        marketId: MARKET,
        side: 'buy',
        kind: 'limit',
        priceTicks: 101,
        quantityLots: 9,
      },
      { type: 'cancelOrder', owner: 2, orderId: 2 },
      { type: 'completeWithdrawal', withdrawalId: 1 },
      { type: 'placeOrder', owner: 1, marketId: MARKET, side: 'sell', kind: 'market', quantityLots: 3 },
    ];
    for (const command of commands) {
      const envelope: Envelope = { seq: exchange.seq + 1, timeMs: exchange.timeMs + 1, command };
      const live = exchange.apply(command);
      expect(restored.apply(envelope)).toEqual(live);
    }
    expect(restored.stateHash()).toBe(exchange.engine.stateHash());
    expect(restored.spot.openOrders(2)).toEqual(exchange.engine.spot.openOrders(2));
  });

  it('hashes with SHA-256 of the snapshot text, agreeing with node:crypto', () => {
    const exchange = tradedExchange();
    const expected = createHash('sha256').update(exchange.engine.snapshot(), 'utf8').digest('hex');
    expect(exchange.engine.stateHash()).toBe(expected);
    for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 100_003]) {
      const text = 'a\u00e9\u4e2d'.repeat(length).slice(0, length);
      expect(sha256HexOfText(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
    }
  });

  it('leaves zero accounts out, so a path through an empty balance hashes like no path at all', () => {
    const a = new TestExchange().setUpSimpleMarket();
    const b = new TestExchange().setUpSimpleMarket();
    a.ok({ type: 'addCurrency', currencyId: 3, code: 'C', scale: 0 });
    b.ok({ type: 'addCurrency', currencyId: 3, code: 'C', scale: 0 });
    a.ok({ type: 'deposit', userId: 1, currencyId: 3, amount: 5n });
    a.ok({ type: 'requestWithdrawal', userId: 1, currencyId: 3, amount: 5n, feeAmount: 0n });
    a.ok({ type: 'completeWithdrawal', withdrawalId: 1 });
    const documentOf = (engine: Engine) => JSON.parse(engine.snapshot()) as { accounts: unknown[] };
    expect(documentOf(a.engine).accounts).toEqual(documentOf(b.engine).accounts);
  });

  it('refuses to restore a state that breaks an invariant', () => {
    const text = tradedExchange().engine.snapshot();
    const document = JSON.parse(text) as {
      accounts: [unknown, unknown, number, string, string][];
      markets: { bids: unknown[][]; asks: unknown[][] }[];
    };
    const unbalanced = structuredClone(document);
    unbalanced.accounts[0]![3] = String(BigInt(unbalanced.accounts[0]![3]) + 1n);
    expect(() => Engine.restore(JSON.stringify(unbalanced))).toThrow(EngineInvariantError);
    const wrongHold = structuredClone(document);
    wrongHold.markets[0]!.asks[0]![5] = '1';
    expect(() => Engine.restore(JSON.stringify(wrongHold))).toThrow(/holds/);
    expect(() => Engine.restore('{"format":"other"}')).toThrow(/not a fairex-engine-snapshot/);
  });
});

const productTerms = {
  startMs: 0,
  endMs: 1_800_000_000_000,
  currencyId: 1,
  payCurrencyId: 2,
  totalUnits: 1_000n,
  unitPrice: 5n,
  feeBp: 100,
  days: 30,
  rateKind: 'recorded' as const,
  rateMin: 1n,
  rateMax: 3n,
  aprBp: 0,
  earlyExit: null,
  perUserCap: 10n,
};
const productDetails = { title: 'M1', logo: '', white: '', image: '', label: '100 TH/s', description: '' };
const productCommands = {
  createProduct: { type: 'createProduct', kind: 'miner', terms: productTerms, details: productDetails },
  editProduct: { type: 'editProduct', productId: 1, terms: productTerms, details: productDetails },
  openProduct: { type: 'openProduct', productId: 1 },
  closeProduct: { type: 'closeProduct', productId: 1 },
  recordMinerRate: { type: 'recordMinerRate', productId: 1, day: 20_000, perUnit: 2n },
  buyIco: { type: 'buyIco', userId: 1, productId: 1, quantity: 3 },
  buyMiner: { type: 'buyMiner', userId: 1, productId: 1, quantity: 3 },
  stakeDefi: { type: 'stakeDefi', userId: 1, productId: 1, quantity: 3 },
  extractMinerEarnings: { type: 'extractMinerEarnings', userId: 1, holdingId: 2, amount: 7n },
  exitDefiStake: { type: 'exitDefiStake', userId: 1, holdingId: 2 },
  accrueProductDay: { type: 'accrueProductDay', productId: 1, day: 20_000 },
  matureProductHoldings: { type: 'matureProductHoldings', productId: 1, limit: 100 },
} as const;

describe('codec', () => {
  const commands: { [Type in CommandType]: Extract<Command, { type: Type }> } = {
    addCurrency: { type: 'addCurrency', currencyId: 1, code: 'BTC', scale: 8 },
    deposit: {
      type: 'deposit',
      userId: 1,
      currencyId: 1,
      amount: 123456789012345678901234567890n,
      memo: 'tx',
    },
    systemFund: {
      type: 'systemFund',
      owner: 'marketMaker',
      currencyId: 1,
      amount: 5n,
      wallet: 'change',
      memo: 'genesis',
    },
    houseTransfer: {
      type: 'houseTransfer',
      userId: 1,
      currencyId: 1,
      amount: 3n,
      memo: 'demo: merchant funds',
    },
    transfer: {
      type: 'transfer',
      userId: 1,
      currencyId: 1,
      fromWallet: 'change',
      toWallet: 'lever',
      amount: 2n,
    },
    systemTransfer: {
      type: 'systemTransfer',
      owner: 'house',
      currencyId: 1,
      fromWallet: 'change',
      toWallet: 'micro',
      amount: 7n,
      memo: 'micro reserve',
    },
    requestWithdrawal: {
      type: 'requestWithdrawal',
      userId: 1,
      currencyId: 1,
      amount: 10n,
      feeAmount: 1n,
      memo: 'addr',
    },
    completeWithdrawal: { type: 'completeWithdrawal', withdrawalId: 3, memo: 'txid' },
    rejectWithdrawal: { type: 'rejectWithdrawal', withdrawalId: 3, memo: 'no' },
    flashExchange: {
      type: 'flashExchange',
      userId: 1,
      fromCurrencyId: 2,
      toCurrencyId: 1,
      amount: 600n,
      payoutAmount: 10n,
      feeAmount: 1n,
      memo: 'flash:1',
    },
    addMarket: {
      type: 'addMarket',
      marketId: 1,
      baseCurrencyId: 1,
      quoteCurrencyId: 2,
      tickSize: '0.01',
      lotSize: '0.001',
      minimumLots: 1,
      makerFeePpm: 1000,
      takerFeePpm: 2000,
      quoteMinorPerTickLot: 10n,
    },
    setMarketFees: { type: 'setMarketFees', marketId: 1, makerFeePpm: 0, takerFeePpm: 1 },
    placeOrder: {
      type: 'placeOrder',
      owner: 1,
      marketId: 1,
      side: 'buy',
      kind: 'market',
      quantityLots: 5,
      quoteAmountMax: 77n,
      clientOrderId: 'c-1',
    },
    cancelOrder: { type: 'cancelOrder', owner: 'marketMaker', orderId: 9 },
    cancelAllOrders: { type: 'cancelAllOrders', owner: 7, marketId: 1 },
    setMarketBand: { type: 'setMarketBand', marketId: 1, bandPpm: 20_000 },
    recordIndexPrice: { type: 'recordIndexPrice', marketId: 1, priceTicks: 6_712_345 },
    recordPriceSamples: {
      type: 'recordPriceSamples',
      maxAgeMs: 10_000,
      minSources: 1,
      headIntervalMs: 60_000,
      samples: [[1, [['binance', 6_712_345, 1_699_999_999_000]]]],
    },
    setMicroSeconds: { type: 'setMicroSeconds', options: [[30, 8_500]] },
    setMicroCurrency: {
      type: 'setMicroCurrency',
      currencyId: 2,
      feeBp: 100,
      minStake: 10n,
      maxStake: 10n ** 30n,
      presets: [10n, 100n],
      maxOpenOrders: 5,
    },
    setMicroExposureCap: { type: 'setMicroExposureCap', marketId: 1, currencyId: 2, exposureCap: 10n ** 20n },
    setMicroStaleness: { type: 'setMicroStaleness', maxSampleAgeMs: 3_000 },
    submitMicroOrder: {
      type: 'submitMicroOrder',
      userId: 1,
      marketId: 1,
      currencyId: 2,
      direction: 2,
      seconds: 30,
      stake: 100n,
    },
    setLeverPair: {
      type: 'setLeverPair',
      marketId: 1,
      enabled: true,
      lotsPerShare: 10,
      multiples: [5, 10],
      minShare: 1,
      maxShare: 0,
      spreadPpm: 500,
      feePpm: 1_000,
      overnightPpm: 500,
      liquidationThresholdBp: 1_000,
      liquidationFeePpm: 0,
      exposureLimitLots: 1_000_000,
    },
    openLeverPosition: { type: 'openLeverPosition', userId: 1, marketId: 1, side: 1, share: 2, multiple: 10 },
    submitLeverEntry: {
      type: 'submitLeverEntry',
      userId: 1,
      marketId: 1,
      side: 2,
      share: 2,
      multiple: 5,
      targetTicks: 7_000_000,
    },
    revokeLeverEntry: { type: 'revokeLeverEntry', userId: 1, positionId: 2 },
    closeLeverPosition: { type: 'closeLeverPosition', userId: 1, positionId: 1 },
    closeLeverPositions: { type: 'closeLeverPositions', userId: 1, which: 2 },
    setLeverStops: { type: 'setLeverStops', userId: 1, positionId: 1, takeProfitTicks: 9, stopLossTicks: 0 },
    chargeLeverOvernight: { type: 'chargeLeverOvernight', day: 20_000 },
    ...productCommands,
    p2pConfigure: {
      type: 'p2pConfigure',
      makerFeeBp: 10,
      takerFeeBp: 20,
      appealWaitMs: 600_000,
      cancellationsPerDay: 3,
    },
    p2pSetReference: { type: 'p2pSetReference', currencyId: 2, fiat: 'CNY', priceCents: 720n },
    p2pSetMerchant: { type: 'p2pSetMerchant', userId: 3, approved: true, acceptor: false },
    p2pPostAd: {
      type: 'p2pPostAd',
      userId: 3,
      side: 'sell',
      currencyId: 2,
      fiat: 'CNY',
      total: 10n ** 20n,
      priceCents: 0n,
      floatBp: -150,
      minFiatCents: 10_000n,
      maxFiatCents: 10n ** 8n,
      windowMs: 900_000,
      methodIds: [4],
      terms: 'bank only',
    },
    p2pEditAd: {
      type: 'p2pEditAd',
      userId: 3,
      adId: 1,
      priceCents: 721n,
      floatBp: null,
      minFiatCents: 1n,
      maxFiatCents: 2n,
      windowMs: 600_000,
      methodIds: [4, 5],
      terms: '',
    },
    p2pSetAdStatus: { type: 'p2pSetAdStatus', userId: 3, adId: 1, status: 'paused' },
    p2pTakeAd: { type: 'p2pTakeAd', userId: 4, adId: 1, amount: 5n * 10n ** 18n, methodId: 0 },
    p2pMarkPaid: { type: 'p2pMarkPaid', userId: 4, orderId: 1 },
    p2pRelease: { type: 'p2pRelease', userId: 3, orderId: 1 },
    p2pCancel: { type: 'p2pCancel', userId: 4, orderId: 1 },
    p2pAppeal: { type: 'p2pAppeal', userId: 4, orderId: 1 },
    p2pReject: { type: 'p2pReject', userId: 3, orderId: 1 },
    p2pDecide: { type: 'p2pDecide', orderId: 1, to: 'seller', arbiterId: 9 },
    p2pTick: { type: 'p2pTick' },
    setUserFreeze: { type: 'setUserFreeze', userId: 1, kind: 'trading', frozen: true },
    startLog: { type: 'startLog', origin: 'example.com/fairex-log', checkpointIntervalMs: 1_000 },
    captureLiabilities: { type: 'captureLiabilities', snapshotId: '2025-01-01' },
    publishLiabilities: {
      type: 'publishLiabilities',
      snapshotId: '2025-01-01',
      root: 'ab'.repeat(32),
      leafCount: 2,
      columns: ['USDT', 'USDT:upnl+', 'USDT:upnl-'],
      totals: [10n ** 20n, 0n, 7n],
    },
  };

  it.each(Object.values(commands))('round-trips a $type envelope exactly', (command) => {
    const envelope: Envelope = { seq: 12, timeMs: 1_700_000_000_000, idempotencyKey: 'k:1', command };
    const text = encodeEnvelope(envelope);
    expect(decodeEnvelope(text)).toEqual(envelope);
    expect(encodeEnvelope(decodeEnvelope(text))).toBe(text);
  });

  it('round-trips one event of every type, including negative amounts', () => {
    const exchange = tradedExchange();
    const events: EngineEvent[] = [];
    const record = (command: Command) => events.push(...exchange.ok(command).events);
    record({ type: 'addCurrency', currencyId: 3, code: 'ETH', scale: 18 });
    record({ type: 'setMarketFees', marketId: MARKET, makerFeePpm: 10, takerFeePpm: 20 });
    record({
      type: 'addMarket',
      marketId: 2,
      baseCurrencyId: 3,
      quoteCurrencyId: QUOTE,
      tickSize: '1',
      lotSize: '1',
      minimumLots: 1,
      makerFeePpm: 0,
      takerFeePpm: 0,
    });
    record({
      type: 'placeOrder',
      owner: 2,
      marketId: MARKET,
      side: 'buy',
      kind: 'limit',
      priceTicks: 101,
      quantityLots: 12,
    });
    record({ type: 'cancelOrder', owner: 2, orderId: 2 });
    record({ type: 'completeWithdrawal', withdrawalId: 1 });
    record({ type: 'requestWithdrawal', userId: 1, currencyId: BASE, amount: 5n, feeAmount: 0n });
    record({ type: 'rejectWithdrawal', withdrawalId: 2 });
    const seen = new Set(events.map((event) => event.type));
    const all: EngineEventType[] = [
      'currencyAdded',
      'balanceChanged',
      'withdrawalRequested',
      'withdrawalCompleted',
      'withdrawalRejected',
      'marketAdded',
      'marketFeesChanged',
      'orderAccepted',
      'orderRested',
      'orderCancelled',
      'orderDone',
      'trade',
    ];
    expect([...seen].sort()).toEqual([...all].sort());
    expect(events.some((event) => event.type === 'balanceChanged' && event.availableAfter < 0n)).toBe(true);
    expect(decodeEvents(encodeEvents(events))).toEqual(events);
  });

  it('names only fields that really are bigints', () => {
    const exchange = tradedExchange();
    const outcome = exchange.ok({
      type: 'placeOrder',
      owner: 2,
      marketId: MARKET,
      side: 'buy',
      kind: 'limit',
      priceTicks: 101,
      quantityLots: 12,
    });
    for (const event of outcome.events) {
      for (const [key, value] of Object.entries(event)) {
        expect({ key, isBigint: typeof value === 'bigint' }).toEqual({
          key,
          isBigint: BIGINT_FIELDS.has(key),
        });
      }
    }
  });

  it('rejects text that is not an integer in a bigint field', () => {
    expect(() => decodeEvents('[{"type":"trade","quoteAmount":"1.5"}]')).toThrow(/not an integer/);
    expect(() => decodeEnvelope('[1]')).toThrow(/JSON object/);
  });
});

describe('result codes', () => {
  it('are unique, named, and grouped by range', () => {
    expect(resultCodeName(ResultCode.insufficientFunds)).toBe('insufficientFunds');
    expect(resultCodeCategory(ResultCode.orderNotFound)).toBe('state');
    expect(resultCodeCategory(ResultCode.invalidPrice)).toBe('invalidInput');
    expect(resultCodeCategory(ResultCode.tickLotNotIntegral)).toBe('config');
    const values = Object.values(ResultCode);
    expect(new Set(values).size).toBe(values.length);
    for (const [name, code] of Object.entries(ResultCode)) {
      const expected =
        name === 'ok' ? 'ok' : /^(i|.*I)nsufficientFunds$/.test(name) ? 'insufficientFunds' : undefined;
      if (expected !== undefined) expect(resultCodeCategory(code)).toBe(expected);
      else expect(['invalidInput', 'state', 'config']).toContain(resultCodeCategory(code));
    }
  });
});
