// The `lever_trade` push on a mark move: profits and the risk rate of every holder of a pair change with
// its mark, so each holder a socket may reach is told after the batch that moved it is committed, without any action of their
// own; a user without an open position on the pair is not. Pushes to one user for one pair are coalesced:
// at most one per interval, the last state sent in a trailing push.
import type { FastifyInstance } from 'fastify';
import type { Command, PriceSourceQuote } from '@fairex/engine';
import type { LeverTradePayload } from '@fairex/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MARK_PUSH_INTERVAL_MS, Throttle } from '../../src/lever/pushes.ts';
import type { Store } from '../../src/store/index.ts';
import { buildTestApp, createUser, loginAs, openTestStore, removeTempDirs } from '../helper.ts';

const BTC_USDT = 1;
const USDT = 3;
const BTC = 1;
const UNIT = 1_000_000n;
let store: Store;
let app: FastifyInstance;
let holderId: number;
let holderToken: string;
let entryOnlyId: number;
let entryOnlyToken: string;
let bystanderId: number;
let offlineId: number;
const pushes: { userId: number; event: string; payload: LeverTradePayload; at: number }[] = [];

async function submit(command: Command): Promise<void> {
  const outcome = await app.runner.submit(command);
  if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
}

async function mark(priceTicks: number): Promise<void> {
  const quote: PriceSourceQuote = ['simulated', priceTicks, Date.now()];
  await submit({
    type: 'recordPriceSamples',
    maxAgeMs: 10_000,
    minSources: 1,
    headIntervalMs: 1,
    samples: [[BTC_USDT, [quote]]],
  });
}

async function fund(id: number, amount: bigint): Promise<void> {
  await submit({ type: 'deposit', userId: id, currencyId: USDT, amount });
  await submit({
    type: 'transfer',
    userId: id,
    currencyId: USDT,
    fromWallet: 'change',
    toWallet: 'lever',
    amount,
  });
}

async function post(url: string, body: Record<string, unknown>, auth: string) {
  const response = await app.inject({ method: 'POST', url, headers: { authorization: auth }, payload: body });
  expect(response.statusCode).toBe(200);
  const reply = response.json() as { type: string; message: unknown };
  expect(reply.type).toBe('ok');
  return reply;
}

const pushesTo = (id: number, since = 0) =>
  pushes.slice(since).filter((entry) => entry.userId === id && entry.event === 'lever_trade');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  store = await openTestStore();
  app = await buildTestApp(store);
  await app.ready();
  const realtime = app.realtime as {
    toUser: (userId: number, event: string, payload: unknown) => void;
    mayReachUser: (userId: number) => boolean;
  };
  const original = realtime.toUser.bind(realtime);
  realtime.toUser = (id, event, payload) => {
    pushes.push({ userId: id, event, payload: payload as LeverTradePayload, at: Date.now() });
    original(id, event, payload);
  };
  // Every user of this file is online except `offline`, whose sockets are all closed.
  realtime.mayReachUser = (id) => id !== offlineId;
  holderId = await createUser(store);
  holderToken = await loginAs(store, holderId);
  entryOnlyId = await createUser(store);
  entryOnlyToken = await loginAs(store, entryOnlyId);
  bystanderId = await createUser(store);
  offlineId = await createUser(store);
  const offlineToken = await loginAs(store, offlineId);
  await submit({
    type: 'systemFund',
    owner: 'house',
    wallet: 'lever',
    currencyId: USDT,
    amount: 1_000_000n * UNIT,
  });
  for (const id of [holderId, entryOnlyId, bystanderId, offlineId]) await fund(id, 1_000n * UNIT);
  await mark(6_700_000);
  // 20x on 10 shares: margin about 335 USDT of a 1,000 USDT balance, so a move shows in the risk rate.
  await post(
    '/api/lever/submit',
    { legal_id: USDT, currency_id: BTC, multiple: 20, share: 10, type: 1, status: 1 },
    holderToken,
  );
  // A holder with no socket: nothing is read or sent for it on a mark move.
  await post(
    '/api/lever/submit',
    { legal_id: USDT, currency_id: BTC, multiple: 20, share: 1, type: 1, status: 1 },
    offlineToken,
  );
  // A limit entry far below: a record, but no open position, so the mark does not concern it.
  await post(
    '/api/lever/submit',
    { legal_id: USDT, currency_id: BTC, multiple: 10, share: 1, type: 1, status: 0, target_price: '50000' },
    entryOnlyToken,
  );
  await sleep(MARK_PUSH_INTERVAL_MS + 50); // the opening's pushes are out
}, 60_000);

afterAll(async () => {
  await app.close();
  await store.close();
  await removeTempDirs();
});

describe('lever_trade on a mark move', () => {
  it('tells a connected holder the new risk rate without any action of theirs; not an entry-only user, a bystander or an offline holder', async () => {
    expect(app.engine.lever.holdersOf(BTC_USDT)).toEqual([holderId, offlineId].sort((a, b) => a - b));
    const before = app.lever.risk(holderId, USDT).hazard_rate;
    const since = pushes.length;
    await mark(6_600_000);
    await vi.waitFor(() => expect(pushesTo(holderId, since).length).toBeGreaterThan(0), { timeout: 10_000 });
    const after = app.lever.risk(holderId, USDT).hazard_rate;
    expect(Number(after)).toBeLessThan(Number(before));
    const push = pushesTo(holderId, since)[0] as (typeof pushes)[number];
    expect(push.payload).toMatchObject({ type: 'lever_trade', legal_id: USDT, hazard_rate: after });
    expect(JSON.parse(push.payload.trades_all)).toHaveLength(1);
    expect(JSON.parse(push.payload.trades_all)[0]).toMatchObject({ legal_id: USDT, status: 1 });
    expect(push.payload.trades_entrust).toBe('[]');
    await sleep(MARK_PUSH_INTERVAL_MS + 50);
    for (const id of [entryOnlyId, bystanderId, offlineId]) expect(pushesTo(id, since)).toEqual([]);
  });

  it('coalesces a burst of marks into one push now and one trailing push with the last state', async () => {
    await sleep(MARK_PUSH_INTERVAL_MS + 50);
    const since = pushes.length;
    const started = Date.now();
    for (const priceTicks of [6_590_000, 6_580_000, 6_570_000, 6_560_000, 6_550_000]) await mark(priceTicks);
    // On a loaded machine the five journaled marks may span more than one interval: each interval they
    // span allows one more push, never more.
    const spanned = Math.floor((Date.now() - started) / MARK_PUSH_INTERVAL_MS);
    await sleep(MARK_PUSH_INTERVAL_MS * 2 + 100);
    const burst = pushesTo(holderId, since);
    expect(burst.length).toBeGreaterThanOrEqual(1);
    expect(burst.length).toBeLessThanOrEqual(2 + spanned);
    const last = burst.at(-1) as (typeof pushes)[number];
    expect(last.payload.hazard_rate).toBe(app.lever.risk(holderId, USDT).hazard_rate);
    for (let index = 1; index < burst.length; index += 1)
      expect(
        (burst[index] as (typeof pushes)[number]).at - (burst[index - 1] as (typeof pushes)[number]).at,
      ).toBeGreaterThanOrEqual(MARK_PUSH_INTERVAL_MS - 5);
  });
});

describe('the throttle', () => {
  it('runs the first call at once, folds the rest of the interval into one trailing call, per key', () => {
    vi.useFakeTimers();
    try {
      const runs: string[] = [];
      const throttle = new Throttle(250);
      throttle.call('a', () => runs.push('a1'));
      throttle.call('a', () => runs.push('a2'));
      throttle.call('a', () => runs.push('a3'));
      throttle.call('b', () => runs.push('b1'));
      expect(runs).toEqual(['a1', 'b1']);
      vi.advanceTimersByTime(249);
      expect(runs).toEqual(['a1', 'b1']);
      vi.advanceTimersByTime(1);
      expect(runs).toEqual(['a1', 'b1', 'a3']); // the trailing call is the latest; b had none
      expect(throttle.size).toBe(1); // a's new window after its trailing call; b's is gone
      vi.advanceTimersByTime(250);
      expect(throttle.size).toBe(0);
      throttle.call('a', () => runs.push('a4'));
      expect(runs.at(-1)).toBe('a4');
      throttle.stop();
      expect(throttle.size).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
