// A seeded simulation of the products area: 40 users over 120 days buy tokens, rent miners (a fixed and a
// recorded rate), stake and leave early, extract and mature, while the accrual job runs a few times a day
// (sometimes missing days and catching up). Every invariant is checked at each accrual run; at the end a
// replay of the journal and a snapshot restore both equal the live state, and the final state hash is
// pinned, so any change in the area's rules or rounding shows here.
import { describe, expect, it } from 'vitest';
import { DAY_MS, dayOf } from '../src/calc/products.ts';
import { Engine } from '../src/index.ts';
import type { Command, Envelope } from '../src/index.ts';
import { BTC, DEFI, ICO, IEPN, MINER_FIXED, MINER_RECORDED, PRODUCTS, T0, USDT } from './products-fixture.ts';

const USERS = 40;
const DAYS = 120;
const SEED = 1_909;
const FINAL_HASH = '82b754c4a6d85b1221bb7604bddd76f99d118c0be95ff9de2451224dffe45a9f';
const FINAL_COUNTS = { accepted: 1_447, refused: 772, accruals: 244, matured: 305 };

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

describe('a seeded products simulation', () => {
  it('keeps every rule for 120 days, replays and restores to the pinned hash', () => {
    const next = random(SEED);
    const pick = (n: number) => Math.floor(next() * n);
    const engine = Engine.create();
    const journal: Envelope[] = [];
    let seq = 0;
    let timeMs = T0;
    const apply = (command: Command) => {
      const envelope: Envelope = { seq: ++seq, timeMs, command };
      journal.push(envelope);
      return engine.apply(envelope);
    };
    const ok = (command: Command) => {
      const outcome = apply(command);
      if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
      return outcome;
    };
    ok({ type: 'addCurrency', currencyId: BTC, code: 'BTC', scale: 8 });
    ok({ type: 'addCurrency', currencyId: USDT, code: 'USDT', scale: 6 });
    ok({ type: 'addCurrency', currencyId: IEPN, code: 'IEPN', scale: 4 });
    for (let userId = 1; userId <= USERS; userId += 1) {
      ok({ type: 'deposit', userId, currencyId: USDT, amount: 30_000_000_000n });
      for (const wallet of ['ico', 'miner', 'defi'] as const)
        ok({
          type: 'transfer',
          userId,
          currencyId: USDT,
          fromWallet: 'change',
          toWallet: wallet,
          amount: 10_000_000_000n,
        });
    }
    ok({ type: 'systemFund', owner: 'house', currencyId: IEPN, amount: 100_000_000n, wallet: 'ico' });
    ok({ type: 'systemFund', owner: 'house', currencyId: BTC, amount: 100_000_000n, wallet: 'miner' });
    ok({ type: 'systemFund', owner: 'house', currencyId: USDT, amount: 1_000_000_000n, wallet: 'defi' });
    for (const command of PRODUCTS) ok(command);
    for (const productId of [ICO, MINER_RECORDED, MINER_FIXED, DEFI]) ok({ type: 'openProduct', productId });
    // Larger totals than the fixture's, as future terms (the house holds the difference from then on).
    const totals: [number, bigint][] = [
      [ICO, 5_000n],
      [MINER_RECORDED, 2_000n],
      [MINER_FIXED, 2_000n],
      [DEFI, 20_000n],
    ];
    PRODUCTS.forEach((create, index) => {
      if (create.type !== 'createProduct') return;
      const [productId, totalUnits] = totals[index] as [number, bigint];
      ok({
        type: 'editProduct',
        productId,
        terms: { ...create.terms, totalUnits, perUserCap: null },
        details: create.details,
      });
    });
    const counts = { accepted: 0, refused: 0, accruals: 0, matured: 0 };
    const end = T0 + DAYS * DAY_MS;
    while (timeMs < end) {
      timeMs += 1 + pick(2 * 3_600_000);
      const userId = 1 + pick(USERS);
      const roll = next();
      let command: Command | undefined;
      if (roll < 0.15) command = { type: 'buyIco', userId, productId: ICO, quantity: 1 + pick(40) };
      else if (roll < 0.35)
        command = {
          type: 'buyMiner',
          userId,
          productId: next() < 0.5 ? MINER_RECORDED : MINER_FIXED,
          quantity: 1 + pick(3),
        };
      else if (roll < 0.55) command = { type: 'stakeDefi', userId, productId: DEFI, quantity: 1 + pick(30) };
      else if (roll < 0.7) {
        const rents = engine.products
          .holdingsOf(userId)
          .filter((h) => h.kind === 'miner' && h.accrued > h.extracted);
        const rent = rents[pick(rents.length)];
        if (rent !== undefined)
          command = {
            type: 'extractMinerEarnings',
            userId,
            holdingId: rent.holdingId,
            amount: 1n + ((rent.accrued - rent.extracted - 1n) * BigInt(pick(100))) / 100n,
          };
      } else if (roll < 0.75) {
        const stakes = engine.products.holdingsOf(userId).filter((h) => h.kind === 'defi');
        const stake = stakes[pick(stakes.length)];
        if (stake !== undefined) command = { type: 'exitDefiStake', userId, holdingId: stake.holdingId };
      } else if (roll < 0.8)
        command = {
          type: 'recordMinerRate',
          productId: MINER_RECORDED,
          day: dayOf(timeMs) + 1 + pick(2),
          perUnit: 1_000n + BigInt(pick(2_001)),
        };
      else if (roll < 0.83) {
        const productId = [ICO, MINER_RECORDED, MINER_FIXED, DEFI][pick(4)] as number;
        const open = engine.products.product(productId)?.status === 'open';
        command = { type: open ? 'closeProduct' : 'openProduct', productId };
      } else if (roll < 0.9 && next() < 0.7) {
        // The accrual job: every due day, oldest first, then the maturities.
        for (;;) {
          const due = engine.products.dueAccruals(timeMs);
          if (due.length === 0) break;
          for (const { productId, day } of due) {
            ok({ type: 'accrueProductDay', productId, day });
            counts.accruals += 1;
          }
        }
        for (const productId of engine.products.dueMaturities()) {
          const reply = ok({ type: 'matureProductHoldings', productId, limit: 50 }).reply as {
            matured: number;
          };
          counts.matured += reply.matured;
        }
        engine.checkInvariants();
      }
      if (command === undefined) continue;
      if (apply(command).code === 0) counts.accepted += 1;
      else counts.refused += 1;
    }
    engine.checkInvariants();
    expect(counts.accepted).toBeGreaterThan(1_000);
    expect(counts.accruals).toBeGreaterThan(200);
    expect(counts.matured).toBeGreaterThan(100);
    for (const product of engine.products.products())
      expect(product.sold <= product.terms.totalUnits).toBe(true);

    const replayed = Engine.create();
    for (const envelope of journal) replayed.apply(envelope);
    expect(replayed.stateHash()).toBe(engine.stateHash());
    const quiet = Engine.create();
    for (const envelope of journal) quiet.replay(envelope);
    expect(quiet.stateHash()).toBe(engine.stateHash());
    const restored = Engine.restore(engine.snapshot());
    expect(restored.stateHash()).toBe(engine.stateHash());
    expect({ hash: engine.stateHash(), ...counts }).toEqual({ hash: FINAL_HASH, ...FINAL_COUNTS });
  });
});
