// Products benchmark (issue 19's target): the daily accrual of 1,000,000 holdings, and a second run of the
// same day changing nothing. 1,000,000 holdings are bought through the engine's commands (a fixed-rate and a
// recorded-rate miner, two defi products; 100,000 users), then the clock passes the first day's end and the
// accrual job's commands run: one `accrueProductDay` per product. A holding's credited amount is derived
// from its product's day records (docs/products.md, "Accrual"), so a day's accrual costs one command per
// product whatever the number of holdings; the bench also times reading every holding's accrued amount
// (what the calls and the invariant check do), the invariant check itself, and a snapshot and restore.
import { DAY_MS, dayOf } from '../src/calc/products.ts';
import { Engine } from '../src/index.ts';
import type { Command, ProductTerms } from '../src/index.ts';

type Figures = Record<string, number | string>;

const BTC = 1;
const USDT = 2;
const DAY0 = 20_000;
const T0 = DAY0 * DAY_MS + 3_600_000;

function terms(overrides: Partial<ProductTerms>): ProductTerms {
  return {
    startMs: 0,
    endMs: T0 + 400 * DAY_MS,
    currencyId: USDT,
    payCurrencyId: USDT,
    totalUnits: 1_000_000_000n,
    unitPrice: 0n,
    feeBp: 0,
    days: 30,
    rateKind: null,
    rateMin: 0n,
    rateMax: 0n,
    aprBp: 0,
    earlyExit: null,
    perUserCap: null,
    ...overrides,
  };
}

const details = { title: 'bench', logo: '', white: '', image: '', label: '', description: '' };

export async function runProductsBench(
  options: { holdings?: number; users?: number } = {},
): Promise<Figures> {
  const holdings = options.holdings ?? 1_000_000;
  const users = options.users ?? 100_000;
  const engine = Engine.create();
  let seq = 0;
  let timeMs = T0;
  const ok = (command: Command) => {
    const outcome = engine.apply({ seq: ++seq, timeMs, command });
    if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
    return outcome;
  };
  ok({ type: 'addCurrency', currencyId: BTC, code: 'BTC', scale: 8 });
  ok({ type: 'addCurrency', currencyId: USDT, code: 'USDT', scale: 6 });
  ok({ type: 'systemFund', owner: 'house', wallet: 'miner', currencyId: BTC, amount: 10n ** 24n });
  ok({ type: 'systemFund', owner: 'house', wallet: 'defi', currencyId: USDT, amount: 10n ** 24n });
  const products: Command[] = [
    {
      type: 'createProduct',
      kind: 'miner',
      terms: terms({
        currencyId: BTC,
        unitPrice: 1_000_000n,
        feeBp: 100,
        rateKind: 'fixed',
        rateMin: 2_000n,
        rateMax: 2_000n,
      }),
      details,
    },
    {
      type: 'createProduct',
      kind: 'miner',
      terms: terms({
        currencyId: BTC,
        unitPrice: 1_000_000n,
        feeBp: 100,
        rateKind: 'recorded',
        rateMin: 1_500n,
        rateMax: 2_500n,
      }),
      details,
    },
    {
      type: 'createProduct',
      kind: 'defi',
      terms: terms({ days: 30, aprBp: 800, earlyExit: 'forfeit' }),
      details,
    },
    {
      type: 'createProduct',
      kind: 'defi',
      terms: terms({ days: 90, aprBp: 1_200, earlyExit: 'none' }),
      details,
    },
  ];
  for (const command of products) ok(command);
  for (let productId = 1; productId <= products.length; productId += 1)
    ok({ type: 'openProduct', productId });
  ok({ type: 'recordMinerRate', productId: 2, day: DAY0 + 1, perUnit: 2_100n });
  for (let userId = 1; userId <= users; userId += 1) {
    ok({ type: 'deposit', userId, currencyId: USDT, amount: 2_000_000_000n });
    ok({
      type: 'transfer',
      userId,
      currencyId: USDT,
      fromWallet: 'change',
      toWallet: 'miner',
      amount: 1_000_000_000n,
    });
    ok({
      type: 'transfer',
      userId,
      currencyId: USDT,
      fromWallet: 'change',
      toWallet: 'defi',
      amount: 1_000_000_000n,
    });
  }
  const buyStarted = performance.now();
  for (let index = 0; index < holdings; index += 1) {
    const userId = 1 + (index % users);
    const productId = 1 + (index % 4);
    const quantity = 1 + (index % 3);
    ok(
      productId <= 2
        ? { type: 'buyMiner', userId, productId, quantity }
        : { type: 'stakeDefi', userId, productId, quantity },
    );
  }
  const buyMs = performance.now() - buyStarted;

  // The first day of every holding (the day after the purchases) has ended.
  timeMs = (DAY0 + 2) * DAY_MS + 1_000;
  const hashBefore = engine.stateHash();
  const accrualStarted = performance.now();
  let credited = 0;
  let events = 0;
  for (const { productId, day } of engine.products.dueAccruals(timeMs)) {
    if (day !== DAY0 + 1) continue;
    const outcome = ok({ type: 'accrueProductDay', productId, day });
    credited += (outcome.reply as { holdings: number }).holdings;
    events += outcome.events.length;
  }
  const accrualMs = performance.now() - accrualStarted;
  if (credited !== holdings) throw new Error(`credited ${credited} holdings, expected ${holdings}`);
  const hashAfter = engine.stateHash();
  if (hashAfter === hashBefore) throw new Error('the accrual changed nothing');

  // The same day again: refused, nothing changes (the state hash moves only by the envelope's seq and time).
  const againStarted = performance.now();
  let refused = 0;
  for (let productId = 1; productId <= products.length; productId += 1) {
    const outcome = engine.apply({
      seq: ++seq,
      timeMs,
      command: { type: 'accrueProductDay', productId, day: DAY0 + 1 },
    });
    if (outcome.code !== 0 && outcome.events.length === 0) refused += 1;
  }
  const againMs = performance.now() - againStarted;
  const unchanged = JSON.stringify(engine.products.products(), (_k, v: unknown) =>
    typeof v === 'bigint' ? String(v) : v,
  );

  // Reading every holding's credited amount, as the calls do, and checking they sum to the earned holds.
  const readStarted = performance.now();
  let accruedSum = 0n;
  for (let userId = 1; userId <= users; userId += 1)
    for (const holding of engine.products.holdingsOf(userId)) accruedSum += holding.accrued;
  const readMs = performance.now() - readStarted;
  const earned = engine.products.products().reduce((sum, product) => sum + product.earned, 0n);
  if (accruedSum !== earned) throw new Error(`holdings accrued ${accruedSum}, earned holds ${earned}`);
  if (
    JSON.stringify(engine.products.products(), (_k, v: unknown) =>
      typeof v === 'bigint' ? String(v) : v,
    ) !== unchanged
  )
    throw new Error('the second run changed the products');

  const invariantsStarted = performance.now();
  engine.checkInvariants();
  const invariantsMs = performance.now() - invariantsStarted;
  const snapshotStarted = performance.now();
  const snapshot = engine.snapshot();
  const snapshotMs = performance.now() - snapshotStarted;
  const restoreStarted = performance.now();
  const restored = Engine.restore(snapshot);
  const restoreMs = performance.now() - restoreStarted;
  if (restored.stateHash() !== engine.stateHash()) throw new Error('the restored state differs');

  return {
    holdings,
    users,
    'buy commands (setup), per second': Math.round(holdings / (buyMs / 1000)),
    'daily accrual of all holdings (4 commands), ms': Number(accrualMs.toFixed(3)),
    'holdings credited': credited,
    'events journaled by the accrual': events,
    'target < 60,000 ms': accrualMs < 60_000 ? 'met' : 'MISSED',
    'second run of the same day, ms': Number(againMs.toFixed(3)),
    'second run refused, state unchanged': refused === products.length ? 'yes' : 'NO',
    'read every holding accrued amount, ms': Math.round(readMs),
    'invariant check (every holding), ms': Math.round(invariantsMs),
    'snapshot, ms': Math.round(snapshotMs),
    'snapshot, MB': Number((snapshot.length / 1_048_576).toFixed(1)),
    'restore, ms': Math.round(restoreMs),
    day: dayOf(timeMs) - 1,
  };
}

if (import.meta.main) {
  const holdings = Number(process.argv[2] ?? 1_000_000);
  console.log(await runProductsBench({ holdings, users: Math.max(1, Math.floor(holdings / 10)) }));
}
