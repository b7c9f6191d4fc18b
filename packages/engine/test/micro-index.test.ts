// Seconds contracts settle on the recorded index (rule fairex-micro-v2), and journals written before that rule
// replay unchanged: an order journaled without `settleOn` settles on the mark by rule fairex-micro-v1, and a
// state holding such orders has the snapshot text and the state hash the code before the index rule gave
// (the hashes below were taken by running this scenario on that code). A new order is refused while the
// price is stale.
import { describe, expect, it } from 'vitest';
import { checkMicroProof } from '../../../scripts/verify-micro.ts';
import type { MicroProof } from '../../../scripts/verify-micro.ts';
import type { Sample } from '../../../scripts/verify-prices.ts';
import { Engine, MicroResultCode, formatTicks } from '../src/index.ts';
import type {
  Command,
  EngineEvent,
  Envelope,
  MicroOrderSettledEvent,
  Outcome,
  PriceSampledEvent,
} from '../src/index.ts';

const USDT = 2;
const MAKER = 50;
const TRADER = 1;
const MAX_AGE = 2_000;

class Driver {
  readonly engine = Engine.create();
  readonly envelopes: Envelope[] = [];
  readonly events: EngineEvent[] = [];
  seq = 0;
  timeMs = 1_700_000_000_000;

  apply(command: Command, advanceMs = 1): Outcome {
    this.seq += 1;
    this.timeMs += advanceMs;
    const envelope: Envelope = { seq: this.seq, timeMs: this.timeMs, command };
    this.envelopes.push(envelope);
    const outcome = this.engine.apply(envelope);
    this.engine.checkInvariants();
    this.events.push(...outcome.events);
    return outcome;
  }

  ok(command: Command, advanceMs = 1): Outcome {
    const outcome = this.apply(command, advanceMs);
    if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
    return outcome;
  }

  /** One sample of market 1 from one source at `priceTicks`; a stale one has only an old source time. */
  sample(priceTicks: number, advanceMs: number, stale = false): Outcome {
    const sourceTimeMs = this.timeMs + advanceMs - (stale ? 20_000 : 0);
    return this.ok(
      {
        type: 'recordPriceSamples',
        maxAgeMs: 10_000,
        minSources: 1,
        headIntervalMs: 60_000,
        samples: [[1, [['sim', priceTicks, sourceTimeMs]]]],
      },
      advanceMs,
    );
  }

  submit(direction: 1 | 2, seconds: number, settleOn: 'index' | undefined, advanceMs = 1): Outcome {
    return this.apply(
      {
        type: 'submitMicroOrder',
        userId: TRADER,
        marketId: 1,
        currencyId: USDT,
        direction,
        seconds,
        stake: 1_000n,
        ...(settleOn === undefined ? {} : { settleOn }),
      },
      advanceMs,
    );
  }
}

function setUp(): Driver {
  const driver = new Driver();
  driver.ok({ type: 'addCurrency', currencyId: 1, code: 'BASE', scale: 0 });
  driver.ok({ type: 'addCurrency', currencyId: USDT, code: 'USDT', scale: 2 });
  driver.ok({
    type: 'addMarket',
    marketId: 1,
    baseCurrencyId: 1,
    quoteCurrencyId: USDT,
    tickSize: '1',
    lotSize: '1',
    minimumLots: 1,
    makerFeePpm: 0,
    takerFeePpm: 0,
  });
  driver.ok({ type: 'setMicroSeconds', options: [[5, 8_500]] });
  driver.ok({
    type: 'setMicroCurrency',
    currencyId: USDT,
    feeBp: 0,
    minStake: 10n,
    maxStake: 100_000n,
    presets: [100n],
    maxOpenOrders: 10,
  });
  driver.ok({ type: 'setMicroStaleness', maxSampleAgeMs: MAX_AGE });
  driver.ok({ type: 'setMicroExposureCap', marketId: 1, currencyId: USDT, exposureCap: 1_000_000n });
  driver.ok({ type: 'systemFund', owner: 'house', wallet: 'micro', currencyId: USDT, amount: 1_000_000n });
  driver.ok({ type: 'deposit', userId: TRADER, currencyId: USDT, amount: 100_000n });
  driver.ok({
    type: 'transfer',
    userId: TRADER,
    currencyId: USDT,
    fromWallet: 'change',
    toWallet: 'micro',
    amount: 100_000n,
  });
  // The book's maker: its quotes around 1,000,000 stay where they are for two samples after the index jumps.
  driver.ok({ type: 'deposit', userId: MAKER, currencyId: 1, amount: 10n });
  driver.ok({ type: 'deposit', userId: MAKER, currencyId: USDT, amount: 10_000_000_000n });
  quote(driver, 1_000_000);
  return driver;
}

function quote(driver: Driver, midTicks: number): void {
  driver.ok({ type: 'cancelAllOrders', owner: MAKER, marketId: 1 });
  for (const [side, priceTicks] of [
    ['buy', midTicks - 1],
    ['sell', midTicks + 1],
  ] as const)
    driver.ok({
      type: 'placeOrder',
      owner: MAKER,
      marketId: 1,
      side,
      kind: 'limit',
      priceTicks,
      quantityLots: 1,
    });
}

/**
 * Samples at 1,000,000 until the basis average is 0, then the index jumps 10 % while the book stays for two
 * samples: the basis average (1/60 per sample of mid - index) drops about 3,300 ticks below the index. The
 * maker then quotes around the new index, and the average climbs back toward 0 by about 55 ticks a sample,
 * while the index drifts down 20 ticks a second. Over the order's 5 seconds the index goes down and the mark
 * up: an up order loses on the index and wins on the mark.
 */
function jumpScenario(
  driver: Driver,
  settleOn: 'index' | undefined,
): { midHash: string; midSnapshot: string; midSeq: number } {
  for (let second = 0; second < 5; second += 1) driver.sample(1_000_000, 1_000);
  driver.sample(1_100_000, 1_000);
  driver.sample(1_100_000, 1_000);
  quote(driver, 1_100_000);
  driver.ok(
    {
      type: 'submitMicroOrder',
      userId: TRADER,
      marketId: 1,
      currencyId: USDT,
      direction: 1,
      seconds: 5,
      stake: 1_000n,
      ...(settleOn === undefined ? {} : { settleOn }),
    },
    500,
  );
  driver.sample(1_099_980, 500);
  const midHash = driver.engine.stateHash();
  const midSnapshot = driver.engine.snapshot();
  const midSeq = driver.seq;
  for (let second = 1; second <= 5; second += 1) driver.sample(1_099_980 - 20 * second, 1_000);
  return { midHash, midSnapshot, midSeq };
}

function settledOf(driver: Driver): MicroOrderSettledEvent {
  const event = driver.events.find((e): e is MicroOrderSettledEvent => e.type === 'microOrderSettled');
  if (event === undefined) throw new Error('no settlement');
  return event;
}

function samplesOf(driver: Driver): PriceSampledEvent[] {
  return driver.events.filter((e): e is PriceSampledEvent => e.type === 'priceSampled');
}

// Taken by running `jumpScenario(setUp(), undefined)` on the code before the index rule existed: a journal
// and snapshots of that code must give these hashes for ever.
const LEGACY_MID_HASH = '99aabf671b8ddc24d89f2106e8114ec7b8199c96c3662e140406ee94428a49e7';
const LEGACY_FINAL_HASH = 'b3b9e1b0ff89eb2ed4386702c957fcf5c2b3a78ec04b0f0d67d45738018b8741';

describe('seconds contracts on the index', () => {
  it('an order journaled before the index rule settles on the mark, with the hashes that code gave', () => {
    const driver = setUp();
    const { midHash, midSnapshot, midSeq } = jumpScenario(driver, undefined);
    const settled = settledOf(driver);
    expect(settled.ruleVersion).toBe('fairex-micro-v1');
    // The mark climbed while the index fell: on the mark the up order wins.
    expect(settled.open?.markTicks).toBeLessThan(settled.end?.markTicks ?? 0);
    expect(settled.outcome).toBe('win');
    expect(midHash).toBe(LEGACY_MID_HASH);
    expect(driver.engine.stateHash()).toBe(LEGACY_FINAL_HASH);
    // The old snapshot shape: an order row of 14 fields, its open sample of 5.
    const micro = (JSON.parse(midSnapshot) as { micro: { orders: unknown[][] } }).micro;
    expect(micro.orders[0]).toHaveLength(14);
    expect(micro.orders[0]?.[13]).toHaveLength(5);
    // A restore from that snapshot, then the rest of the journal, ends at the same state.
    const restored = Engine.restore(midSnapshot);
    for (const envelope of driver.envelopes.filter((e) => e.seq > midSeq)) restored.replay(envelope);
    expect(restored.stateHash()).toBe(LEGACY_FINAL_HASH);
    // And a replay of the whole journal.
    const replica = Engine.create();
    for (const envelope of driver.envelopes) replica.replay(envelope);
    expect(replica.stateHash()).toBe(LEGACY_FINAL_HASH);
  });

  it('a new order settles on the recorded index, not on the mark that trails it', () => {
    const driver = setUp();
    const { midSnapshot, midSeq } = jumpScenario(driver, 'index');
    const settled = settledOf(driver);
    expect(settled.ruleVersion).toBe('fairex-micro-v2');
    const { open, end } = settled;
    expect(open?.indexTicks).toBe(1_099_980);
    expect(end?.indexTicks).toBe(1_099_900);
    // The mark went up over the order (a win on the mark), the index down: a loss on the index.
    expect(open?.markTicks).toBeLessThan(end?.markTicks ?? 0);
    expect(settled.outcome).toBe('loss');
    // Its snapshot row says what it settles on and keeps the index of its open sample; a restore continues.
    const row = (JSON.parse(midSnapshot) as { micro: { orders: unknown[][] } }).micro.orders[0];
    expect(row?.[14]).toBe('index');
    expect((row?.[13] as unknown[])[5]).toBe(1_099_980);
    const restored = Engine.restore(midSnapshot);
    for (const envelope of driver.envelopes.filter((e) => e.seq > midSeq)) restored.replay(envelope);
    expect(restored.stateHash()).toBe(driver.engine.stateHash());
    const replica = Engine.create();
    for (const envelope of driver.envelopes) replica.replay(envelope);
    expect(replica.stateHash()).toBe(driver.engine.stateHash());
    // The samples it names are the recorded ones.
    const bySeq = new Map(samplesOf(driver).map((s) => [s.seq, s]));
    expect(bySeq.get(open?.seq ?? 0)?.indexTicks).toBe(open?.indexTicks);
    expect(bySeq.get(end?.seq ?? 0)?.indexTicks).toBe(end?.indexTicks);
  });

  it('the independent verifier recomputes each rule from the public samples, on its own price', () => {
    for (const settleOn of ['index', undefined] as const) {
      const driver = setUp();
      jumpScenario(driver, settleOn);
      const settled = settledOf(driver);
      const samples: Sample[] = samplesOf(driver).map((e) => ({
        symbol: 'BASE/USDT',
        seq: e.seq,
        time: e.timeMs,
        source_time: e.sourceTimeMs,
        index_price: e.indexTicks === null ? null : formatTicks(e.indexTicks, '1'),
        mark_price: e.markTicks === null ? null : formatTicks(e.markTicks, '1'),
        sources: e.sources.map(([name, price, time]) => ({ name, price: formatTicks(price, '1'), time })),
        stale: e.stale,
        prev_hash: e.prevHash,
        hash: e.hash,
      }));
      const price = (sample: MicroOrderSettledEvent['open']) =>
        sample === null ? null : String(settleOn === 'index' ? sample.indexTicks : sample.markTicks);
      const proof: MicroProof = {
        id: settled.orderId,
        symbol: 'BASE/USDT',
        rule_version: settled.ruleVersion,
        settles_on: settleOn === 'index' ? 'index' : 'mark',
        type: settled.direction,
        number: '10.00',
        profit_ratio: '85',
        fee: '0.00',
        accepted_time: settled.acceptedMs,
        expiry_time: settled.expiryMs,
        max_sample_age_ms: settled.maxSampleAgeMs,
        outcome: settled.outcome,
        payout: settled.outcome === 'win' ? '18.50' : '0.00',
        fee_refund: '0.00',
        open: settled.open && { ...settled.open, time: settled.open.timeMs, price: price(settled.open) },
        end: settled.end && { ...settled.end, time: settled.end.timeMs, price: price(settled.end) },
        proof: null,
      };
      expect(checkMicroProof(proof, samples)).toMatch(/^order 1: (win|loss)/);
      // The other rule's outcome is a mismatch: the verifier reads the price the rule names.
      const flipped = settled.outcome === 'win' ? 'loss' : 'win';
      expect(() =>
        checkMicroProof(
          { ...proof, outcome: flipped, payout: flipped === 'win' ? '18.50' : '0.00' },
          samples,
        ),
      ).toThrow(/outcome/);
    }
  });

  it('refuses a new order while the price is stale, old or missing, changing nothing', () => {
    const driver = setUp();
    // No sample yet.
    expect(driver.submit(1, 5, 'index').code).toBe(MicroResultCode.microPriceStale);
    driver.sample(1_000_000, 1_000);
    driver.sample(1_000_000, 1_000, true);
    const before = driver.engine.ledger.balance(TRADER, 'micro', USDT);
    // The latest sample is stale (its only source too old).
    expect(driver.submit(1, 5, 'index').code).toBe(MicroResultCode.microPriceStale);
    expect(driver.engine.ledger.balance(TRADER, 'micro', USDT)).toEqual(before);
    expect(driver.engine.micro.exposure()).toEqual([]);
    driver.sample(1_000_000, 1_000);
    expect(driver.submit(1, 5, 'index', 100).code).toBe(0);
    // Fresh but older than the staleness bound at the command's time.
    driver.ok({ type: 'deposit', userId: 9, currencyId: 1, amount: 1n }, MAX_AGE + 1);
    expect(driver.submit(2, 5, 'index').code).toBe(MicroResultCode.microPriceStale);
    // Orders journaled before the rule (no field) were taken on a stale price, and still are on replay.
    expect(driver.submit(2, 5, undefined).code).toBe(0);
    // Any other value of the field is refused.
    expect(
      driver.apply({
        type: 'submitMicroOrder',
        userId: TRADER,
        marketId: 1,
        currencyId: USDT,
        direction: 1,
        seconds: 5,
        stake: 1_000n,
        settleOn: 'mark' as 'index',
      }).code,
    ).not.toBe(0);
  });
});
