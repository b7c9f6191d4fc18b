// The price record: each recordPriceSamples command gives every listed market one chained sample; the
// index, mark, staleness and heads follow the written recipe exactly; the chain verifies for any sequence
// of samples with the repository's own verifier (scripts/verify-prices.ts, which knows nothing of the
// engine), and breaks when any one field is changed or two samples are swapped; a replay, or a restore
// from a snapshot taken midway, reproduces the same chain, heads and state hash.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../../../scripts/verify-prices.ts';
import { GENESIS, VerificationError, verifyChain, verifyHeads } from '../../../scripts/verify-prices.ts';
import { Engine, ResultCode, canonicalPriceRecord, chainHash, formatTicks } from '../src/index.ts';
import type {
  Command,
  EngineEvent,
  Envelope,
  PriceSampledEvent,
  RecordPriceSamplesCommand,
} from '../src/index.ts';
import { MARKET, TestExchange, stateWithoutCounters } from './test-exchange.ts';

const MINUTE = 60_000;

function exchange(): TestExchange {
  return new TestExchange().setUpSimpleMarket().fund(1, 1_000n, 1_000_000n);
}

function samples(
  sources: [string, number, number][],
  options: Partial<Omit<RecordPriceSamplesCommand, 'type' | 'samples'>> = {},
): RecordPriceSamplesCommand {
  return {
    type: 'recordPriceSamples',
    maxAgeMs: options.maxAgeMs ?? 10_000,
    minSources: options.minSources ?? 1,
    headIntervalMs: options.headIntervalMs ?? MINUTE,
    samples: [[MARKET, sources]],
  };
}

function sampled(events: readonly EngineEvent[]): PriceSampledEvent[] {
  return events.filter((event): event is PriceSampledEvent => event.type === 'priceSampled');
}

/** A sample as the public call shows it (the market's tick is 1, so prices are whole numbers). */
function publicSample(event: PriceSampledEvent, tickSize = '1'): Sample {
  const price = (ticks: number | null) => (ticks === null ? null : formatTicks(ticks, tickSize));
  return {
    symbol: 'BASE/QUOTE',
    seq: event.seq,
    time: event.timeMs,
    source_time: event.sourceTimeMs,
    index_price: price(event.indexTicks),
    mark_price: price(event.markTicks),
    sources: event.sources.map(([name, priceTicks, timeMs]) => ({
      name,
      price: formatTicks(priceTicks, tickSize),
      time: timeMs,
    })),
    stale: event.stale,
    prev_hash: event.prevHash,
    hash: event.hash,
  };
}

describe('the recipe', () => {
  it('takes the median of the fresh sources, rounding an even middle down, and records them all', () => {
    const ex = exchange();
    const now = ex.timeMs + 1;
    const [one] = sampled(
      ex.ok(
        samples([
          ['a', 100, now],
          ['b', 103, now - 500],
          ['c', 900, now - 20_000],
          ['d', 104, now],
        ]),
      ).events,
    );
    // c is 20 s old: not fresh. Fresh 100, 103, 104: median 103. No book: the basis stays 0.
    expect(one).toMatchObject({ seq: 1, indexTicks: 103, markTicks: 103, stale: false, sourceTimeMs: now });
    expect(one?.sources.map(([name]) => name)).toEqual(['a', 'b', 'c', 'd']);
    expect(one?.prevHash).toBe(GENESIS);
    const t = ex.timeMs + 1;
    const [two] = sampled(
      ex.ok(
        samples([
          ['a', 100, t],
          ['b', 103, t],
        ]),
      ).events,
    );
    expect(two).toMatchObject({ seq: 2, indexTicks: 101, markTicks: 101, prevHash: one?.hash });
    expect(ex.engine.market.indexPrice(MARKET)).toEqual({ priceTicks: 101, timeMs: t });
  });

  it('is stale below the minimum of fresh sources and then repeats the last good prices', () => {
    const ex = exchange();
    const [none] = sampled(ex.ok(samples([])).events);
    expect(none).toMatchObject({
      seq: 1,
      stale: true,
      indexTicks: null,
      markTicks: null,
      sourceTimeMs: null,
    });
    expect(ex.engine.market.isMarkFresh(MARKET, 5_000)).toBe(false);
    ex.ok(samples([['a', 500, ex.timeMs + 1]]));
    expect(ex.engine.market.isMarkFresh(MARKET, 5_000)).toBe(true);
    const t = ex.timeMs + 1;
    const [stale] = sampled(
      ex.ok(
        samples(
          [
            ['a', 600, t],
            ['b', 700, t - 60_000],
          ],
          { minSources: 2 },
        ),
      ).events,
    );
    expect(stale).toMatchObject({ seq: 3, stale: true, indexTicks: 500, markTicks: 500, sourceTimeMs: t });
    expect(ex.engine.market.markPrice(MARKET)).toMatchObject({
      seq: 3,
      stale: true,
      indexTicks: 500,
      markTicks: 500,
    });
    expect(ex.engine.market.isMarkFresh(MARKET, 5_000)).toBe(false);
    expect(ex.engine.market.indexPrice(MARKET)?.priceTicks).toBe(500);
  });

  it('moves the mark toward the book by a damped, capped basis', () => {
    const ex = exchange();
    // Book mid 1,100 against an index of 1,000: observed basis +100 ticks.
    ex.limit(1, 'buy', 1_099, 1);
    ex.limit(1, 'sell', 1_101, 1);
    let mark = 0;
    let basisMicro = 0n;
    for (let step = 0; step < 400; step++) {
      const [event] = sampled(ex.ok(samples([['a', 1_000, ex.timeMs + 1]])).events);
      basisMicro += (100_000_000n - basisMicro) / 60n;
      const capped = basisMicro > 5_000_000n ? 5_000_000n : basisMicro;
      expect(event?.markTicks).toBe(1_000 + Number(capped / 1_000_000n));
      mark = event?.markTicks ?? 0;
    }
    // The basis is capped at 0.5 % of the index: 5 ticks.
    expect(mark).toBe(1_005);
    expect(ex.engine.market.markPrice(MARKET)).toMatchObject({ indexTicks: 1_000, markTicks: 1_005 });
  });

  it('publishes the first sample and then the first of each later head interval', () => {
    const ex = exchange();
    const heads: number[] = [];
    const firstTimeMs = ex.timeMs + 1_000;
    for (let step = 0; step < 200; step++) {
      const outcome = ex.apply(samples([['a', 10, ex.timeMs]], { headIntervalMs: 10_000 }), undefined, 1_000);
      const [event] = sampled(outcome.events);
      if (event?.head) heads.push(event.timeMs);
    }
    expect(heads[0]).toBe(firstTimeMs);
    expect(heads.length).toBe(
      Math.floor((firstTimeMs + 199_000) / 10_000) - Math.floor(firstTimeMs / 10_000) + 1,
    );
    for (let index = 1; index < heads.length; index++)
      expect(Math.floor((heads[index] as number) / 10_000)).toBe(
        Math.floor((heads[index - 1] as number) / 10_000) + 1,
      );
    const published = ex.engine.market.priceChain(MARKET)?.published;
    expect(published?.timeMs).toBe(heads.at(-1));
  });

  it.each([
    [{ maxAgeMs: 0 }, ResultCode.invalidField],
    [{ minSources: 17 }, ResultCode.invalidField],
    [{ headIntervalMs: 1.5 }, ResultCode.invalidField],
    [{ samples: [] }, ResultCode.invalidField],
    [{ samples: [[2, []]] }, ResultCode.marketNotFound],
    [
      {
        samples: [
          [MARKET, []],
          [MARKET, []],
        ],
      },
      ResultCode.invalidId,
    ],
    [
      {
        samples: [
          [
            MARKET,
            [
              ['b', 1, 1],
              ['a', 1, 1],
            ],
          ],
        ],
      },
      ResultCode.invalidPrice,
    ],
    [
      {
        samples: [
          [
            MARKET,
            [
              ['a', 1, 1],
              ['a', 1, 1],
            ],
          ],
        ],
      },
      ResultCode.invalidPrice,
    ],
    [{ samples: [[MARKET, [['A|1', 1, 1]]]] }, ResultCode.invalidPrice],
    [{ samples: [[MARKET, [['a', 0, 1]]]] }, ResultCode.invalidPrice],
    [{ samples: [[MARKET, [['a', 1, -1]]]] }, ResultCode.invalidPrice],
    [{ samples: [[MARKET, [['a', 1]]]] }, ResultCode.invalidPrice],
  ])('refuses %o with code %i and changes nothing', (fields, code) => {
    const ex = exchange();
    ex.ok(samples([['a', 99, ex.timeMs]]));
    const before = stateWithoutCounters(ex.engine);
    const outcome = ex.apply({ ...samples([]), ...fields } as unknown as Command);
    expect(outcome).toEqual({ seq: ex.seq, code, events: [] });
    expect(stateWithoutCounters(ex.engine)).toBe(before);
  });

  it('formats ticks at the tick size', () => {
    expect(formatTicks(6_725_012, '0.01')).toBe('67250.12');
    expect(formatTicks(5, '0.0001')).toBe('0.0005');
    expect(formatTicks(3, '0.5')).toBe('1.5');
    expect(formatTicks(7, '10')).toBe('70');
  });
});

// ------------------------------------------------------------------ properties

const sourceArb = fc.tuple(
  fc.constantFrom('binance', 'okx', 'simulated'),
  fc.integer({ min: 1, max: 10_000_000 }),
  fc.integer({ min: 0, max: 30_000 }),
);
const stepArb = fc.record({
  advanceMs: fc.integer({ min: 1, max: 40_000 }),
  sources: fc.uniqueArray(sourceArb, { selector: ([name]) => name, maxLength: 3 }),
  minSources: fc.integer({ min: 1, max: 3 }),
  order: fc.option(
    fc.record({
      side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
      price: fc.integer({ min: 1, max: 2_000 }),
    }),
    { nil: undefined },
  ),
});

type Step = fc.Arbitrary<typeof stepArb extends fc.Arbitrary<infer T> ? T : never>;
type StepValue = Step extends fc.Arbitrary<infer T> ? T : never;

/** Runs the steps on a fresh exchange; returns the public samples, the heads and the envelopes applied. */
function run(steps: StepValue[]) {
  const ex = new TestExchange();
  const envelopes: Envelope[] = [];
  const original = ex.engine.apply.bind(ex.engine);
  ex.engine.apply = (envelope: Envelope) => {
    envelopes.push(structuredClone(envelope));
    return original(envelope);
  };
  ex.setUpSimpleMarket().fund(1, 1_000n, 1_000_000n);
  const events: PriceSampledEvent[] = [];
  for (const step of steps) {
    if (step.order !== undefined) ex.limit(1, step.order.side, step.order.price, 1);
    const now = ex.timeMs + step.advanceMs;
    const sources = [...step.sources]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, price, age]): [string, number, number] => [name, price, Math.max(0, now - age)]);
    const outcome = ex.apply(
      samples(sources, { minSources: step.minSources, maxAgeMs: 15_000 }),
      undefined,
      step.advanceMs,
    );
    expect(outcome.code).toBe(0);
    events.push(...sampled(outcome.events));
  }
  const publicSamples = events.map((event) => publicSample(event));
  const heads = events
    .filter((event) => event.head)
    .map((event) => ({ symbol: 'BASE/QUOTE', seq: event.seq, time: event.timeMs, hash: event.hash }));
  return { ex, envelopes, publicSamples, heads, events };
}

const mutations: ((sample: Sample) => Sample)[] = [
  (s) => ({ ...s, seq: s.seq + 1 }),
  (s) => ({ ...s, time: s.time + 1 }),
  (s) => ({ ...s, source_time: s.source_time === null ? 0 : s.source_time - 1 }),
  (s) => ({ ...s, index_price: s.index_price === null ? '1' : `${BigInt(s.index_price) + 1n}` }),
  (s) => ({ ...s, mark_price: s.mark_price === null ? '1' : `${BigInt(s.mark_price) + 1n}` }),
  (s) => ({ ...s, stale: !s.stale }),
  (s) => ({ ...s, sources: [...s.sources, { name: 'zz', price: '1', time: 1 }] }),
  (s) => ({
    ...s,
    sources: s.sources.length === 0 ? [{ name: 'a', price: '1', time: 1 }] : s.sources.slice(1),
  }),
  (s) => ({ ...s, prev_hash: s.prev_hash.replace(/^./, (c) => (c === '0' ? '1' : '0')) }),
  (s) => ({ ...s, hash: s.hash.replace(/.$/, (c) => (c === '0' ? '1' : '0')) }),
];

describe('the chain', () => {
  it('verifies for any sequence of samples, and its heads match', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 40 }), (steps) => {
        const { publicSamples, heads } = run(steps);
        const last = verifyChain(publicSamples);
        expect(last?.seq).toBe(steps.length);
        verifyHeads(heads, new Map(publicSamples.map((s) => [s.seq, s])));
        expect(heads[0]?.seq).toBe(1);
      }),
      { numRuns: 60 },
    );
  });

  it('breaks when any one field of any one sample changes', () => {
    fc.assert(
      fc.property(
        fc.array(stepArb, { minLength: 1, maxLength: 20 }),
        fc.nat(),
        fc.integer({ min: 0, max: mutations.length - 1 }),
        (steps, at, which) => {
          const { publicSamples } = run(steps);
          const index = at % publicSamples.length;
          const tampered = [...publicSamples];
          tampered[index] = (mutations[which] as (s: Sample) => Sample)(publicSamples[index] as Sample);
          expect(() => verifyChain(tampered)).toThrow(VerificationError);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('breaks when two samples are swapped, even with their seq numbers swapped back', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 2, maxLength: 20 }), fc.nat(), fc.nat(), (steps, a, b) => {
        const { publicSamples } = run(steps);
        const i = a % publicSamples.length;
        let j = b % publicSamples.length;
        if (i === j) j = (i + 1) % publicSamples.length;
        const swapped = [...publicSamples];
        swapped[i] = publicSamples[j] as Sample;
        swapped[j] = publicSamples[i] as Sample;
        expect(() => verifyChain(swapped)).toThrow(VerificationError);
        const renumbered = swapped.map((sample, index) => ({ ...sample, seq: index + 1 }));
        expect(() => verifyChain(renumbered)).toThrow(VerificationError);
      }),
      { numRuns: 100 },
    );
  });

  it('replays, and restores from a snapshot taken midway, to the same chain, heads and state hash', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 2, maxLength: 30 }), fc.nat(), (steps, cut) => {
        const { ex, envelopes, events } = run(steps);
        const replayed = Engine.create();
        const replayedEvents: EngineEvent[] = [];
        for (const envelope of envelopes)
          replayedEvents.push(...replayed.apply(structuredClone(envelope)).events);
        expect(sampled(replayedEvents)).toEqual(events);
        expect(replayed.stateHash()).toBe(ex.engine.stateHash());
        expect(replayed.market.priceChain(MARKET)).toEqual(ex.engine.market.priceChain(MARKET));

        const at = cut % envelopes.length;
        const first = Engine.create();
        for (const envelope of envelopes.slice(0, at)) first.apply(structuredClone(envelope));
        const restored = Engine.restore(first.snapshot());
        for (const envelope of envelopes.slice(at)) restored.apply(structuredClone(envelope));
        expect(restored.stateHash()).toBe(ex.engine.stateHash());
        expect(restored.market.markPrice(MARKET)).toEqual(ex.engine.market.markPrice(MARKET));
        expect(restored.market.priceChain(MARKET)).toEqual(ex.engine.market.priceChain(MARKET));
      }),
      { numRuns: 40 },
    );
  });

  it('leaves the snapshot of a state without samples as it was', () => {
    const ex = exchange();
    expect(ex.engine.snapshot()).not.toContain('priceChains');
    ex.ok(samples([['a', 5, ex.timeMs]]));
    expect(ex.engine.snapshot()).toContain('priceChains');
  });
});

describe('the documented example', () => {
  it('hashes the canonical record of docs/price-record.md to the hash given there', () => {
    const record = canonicalPriceRecord({
      seq: 1,
      timeMs: 1764115200000,
      sourceTimeMs: 1764115200000,
      indexPrice: formatTicks(6_725_010, '0.01'),
      markPrice: formatTicks(6_725_010, '0.01'),
      stale: false,
      sources: [['simulated', formatTicks(6_725_010, '0.01'), 1764115200000]],
    });
    expect(record).toBe(
      'fairex-price-v1|1|1764115200000|1764115200000|67250.10|67250.10|0|simulated:67250.10:1764115200000',
    );
    expect(chainHash(GENESIS, record)).toBe(
      '97d4bfe7de437cc6b294871ccd1bcc546b77fc3b6e59490670992f81e7cbf62e',
    );
  });
});
