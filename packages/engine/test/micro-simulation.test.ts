// A 100,000-order simulation of seconds contracts on 10 markets, checked order by order by the repository's
// independent verifier (scripts/verify-micro.ts, which knows nothing of the engine): for every settled order
// it picks the open and end samples from the samples as the public call serves them, recomputes the outcome
// and the payout, and compares them with what the exchange settled. 0 mismatches.
import { describe, expect, it } from 'vitest';
import type { Sample } from '../../../scripts/verify-prices.ts';
import { checkMicroProof } from '../../../scripts/verify-micro.ts';
import type { MicroProof } from '../../../scripts/verify-micro.ts';
import { Engine, formatTicks } from '../src/index.ts';
import type { Command, MicroOrderSettledEvent, PriceSampledEvent } from '../src/index.ts';

const ORDERS = 100_000;
const MARKETS = 10;
const USERS = 200;
const USDT = 2;
const TICK = '0.01';

/** A small deterministic generator (xorshift32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
}

function percent(bp: number): string {
  const text = (bp / 100).toFixed(2);
  return text.replace(/0+$/, '').replace(/\.$/, '');
}

function amount(minor: bigint): string {
  const text = minor.toString().padStart(7, '0');
  return `${text.slice(0, -6)}.${text.slice(-6)}`;
}

describe('a 100,000-order simulation', () => {
  it('settles every order as the independent verifier recomputes it from the public samples', () => {
    const engine = Engine.create();
    let seq = 0;
    let timeMs = 1_764_115_200_000;
    const apply = (command: Command, advanceMs = 0) => {
      timeMs += advanceMs;
      const outcome = engine.apply({ seq: ++seq, timeMs, command });
      return outcome;
    };
    const ok = (command: Command) => {
      const outcome = apply(command);
      if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
    };
    for (let market = 1; market <= MARKETS; market += 1)
      ok({ type: 'addCurrency', currencyId: 10 + market, code: `B${market}`, scale: 8 });
    ok({ type: 'addCurrency', currencyId: USDT, code: 'USDT', scale: 6 });
    for (let market = 1; market <= MARKETS; market += 1)
      ok({
        type: 'addMarket',
        marketId: market,
        baseCurrencyId: 10 + market,
        quoteCurrencyId: USDT,
        tickSize: TICK,
        lotSize: '0.0001',
        minimumLots: 1,
        makerFeePpm: 0,
        takerFeePpm: 0,
      });
    ok({
      type: 'setMicroSeconds',
      options: [
        [1, 8_000],
        [2, 8_500],
        [5, 9_250],
      ],
    });
    ok({
      type: 'setMicroCurrency',
      currencyId: USDT,
      feeBp: 150,
      minStake: 1_000_000n,
      maxStake: 1_000_000_000n,
      presets: [],
      maxOpenOrders: 10_000,
    });
    ok({ type: 'setMicroStaleness', maxSampleAgeMs: 1_500 });
    for (let market = 1; market <= MARKETS; market += 1)
      ok({ type: 'setMicroExposureCap', marketId: market, currencyId: USDT, exposureCap: 10n ** 15n });
    ok({ type: 'systemFund', owner: 'house', wallet: 'micro', currencyId: USDT, amount: 10n ** 16n });
    for (let user = 1; user <= USERS; user += 1) {
      ok({ type: 'deposit', userId: user, currencyId: USDT, amount: 10n ** 13n });
      ok({
        type: 'transfer',
        userId: user,
        currencyId: USDT,
        fromWallet: 'change',
        toWallet: 'micro',
        amount: 10n ** 13n,
      });
    }

    const next = random(18);
    const samples = new Map<number, Sample[]>();
    const settled: MicroOrderSettledEvent[] = [];
    const prices = Array.from({ length: MARKETS }, () => 6_700_000);
    let placed = 0;
    const collect = (events: readonly { type: string }[]) => {
      for (const event of events) {
        if (event.type === 'priceSampled') {
          const e = event as PriceSampledEvent;
          const list = samples.get(e.marketId) ?? [];
          list.push({
            symbol: `M${e.marketId}`,
            seq: e.seq,
            time: e.timeMs,
            source_time: e.sourceTimeMs,
            index_price: e.indexTicks === null ? null : formatTicks(e.indexTicks, TICK),
            mark_price: e.markTicks === null ? null : formatTicks(e.markTicks, TICK),
            sources: e.sources.map(([name, price, time]) => ({
              name,
              price: formatTicks(price, TICK),
              time,
            })),
            stale: e.stale,
            prev_hash: e.prevHash,
            hash: e.hash,
          });
          samples.set(e.marketId, list);
        } else if (event.type === 'microOrderSettled') settled.push(event as MicroOrderSettledEvent);
      }
    };
    while (placed < ORDERS) {
      // Samples of every market, about once a second (some late, some stale, some skipped).
      const quotes: [number, [string, number, number][]][] = [];
      for (let market = 1; market <= MARKETS; market += 1) {
        if (next() < 0.03) continue;
        prices[market - 1]! += Math.floor(next() * 5) - 2;
        const stale = next() < 0.03;
        quotes.push([market, [['sim', prices[market - 1]!, stale ? timeMs - 60_000 : timeMs]]]);
      }
      const gap = next() < 0.05 ? 2_500 : 900 + Math.floor(next() * 200);
      if (quotes.length > 0)
        collect(
          apply(
            {
              type: 'recordPriceSamples',
              maxAgeMs: 10_000,
              minSources: 1,
              headIntervalMs: 60_000,
              samples: quotes,
            },
            gap,
          ).events,
        );
      else timeMs += gap;
      // About 50 orders a second across the markets.
      for (let order = 0; order < 50 && placed < ORDERS; order += 1) {
        const outcome = apply(
          {
            type: 'submitMicroOrder',
            userId: 1 + Math.floor(next() * USERS),
            marketId: 1 + Math.floor(next() * MARKETS),
            currencyId: USDT,
            direction: next() < 0.5 ? 1 : 2,
            seconds: [1, 2, 5][Math.floor(next() * 3)]!,
            stake: 1_000_000n + BigInt(Math.floor(next() * 50_000_000)),
          },
          Math.floor(next() * 18),
        );
        expect(outcome.code).toBe(0);
        collect(outcome.events);
        placed += 1;
      }
    }
    // Everything expires; one more command settles what is left.
    collect(
      apply(
        {
          type: 'recordPriceSamples',
          maxAgeMs: 10_000,
          minSources: 1,
          headIntervalMs: 60_000,
          samples: [[1, [['sim', 6_700_000, timeMs + 10_000]]]],
        },
        10_000,
      ).events,
    );
    engine.checkInvariants();
    expect(settled).toHaveLength(ORDERS);
    expect(engine.micro.exposure()).toEqual([]);

    let mismatches = 0;
    const outcomes = new Map<string, number>();
    for (const event of settled) {
      const proof: MicroProof = {
        id: event.orderId,
        symbol: `M${event.marketId}`,
        rule_version: event.ruleVersion,
        type: event.direction,
        number: amount(event.stake),
        profit_ratio: percent(event.profitRatioBp),
        fee: amount(event.fee),
        accepted_time: event.acceptedMs,
        expiry_time: event.expiryMs,
        max_sample_age_ms: event.maxSampleAgeMs,
        outcome: event.outcome,
        payout: amount(event.payout),
        fee_refund: amount(event.feeRefund),
        open: event.open && {
          seq: event.open.seq,
          time: event.open.timeMs,
          price: event.open.markTicks === null ? null : formatTicks(event.open.markTicks, TICK),
          stale: event.open.stale,
          hash: event.open.hash,
        },
        end: event.end && {
          seq: event.end.seq,
          time: event.end.timeMs,
          price: event.end.markTicks === null ? null : formatTicks(event.end.markTicks, TICK),
          stale: event.end.stale,
          hash: event.end.hash,
        },
        proof: null,
      };
      const list = samples.get(event.marketId) ?? [];
      // The samples a verifier would read: acceptance minus the bound to expiry plus the bound.
      const window = list.filter(
        (sample) =>
          sample.time >= event.acceptedMs - event.maxSampleAgeMs &&
          sample.time <= event.expiryMs + event.maxSampleAgeMs,
      );
      try {
        checkMicroProof(proof, window);
      } catch {
        mismatches += 1;
      }
      outcomes.set(event.outcome, (outcomes.get(event.outcome) ?? 0) + 1);
    }
    expect(mismatches).toBe(0);
    // Every branch of the rule is exercised.
    expect([...outcomes.keys()].sort()).toEqual(['draw', 'loss', 'void', 'win']);
  }, 300_000);
});
