// The transparency log area: nothing before startLog (old journals keep their state hash); one leaf per
// recordPriceSamples command with every market it sampled, in the documented text; checkpoints by interval
// bucket; a replay, a quiet replay and a restore from a snapshot taken midway reproduce every leaf, node and
// checkpoint byte for byte; the liabilities capture adds up to the ledger's user side with non-negative
// amounts; a publish that does not match the capture is refused and changes nothing; the root after any
// number of appends is the RFC 9162 root over the nodes the events carried.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AREAS,
  Engine,
  LogResultCode,
  ResultCode,
  decodeEvents,
  encodeEvents,
  liabilitiesEntry,
  pricesEntry,
} from '../src/index.ts';
import type {
  Command,
  EngineEvent,
  LiabilitiesCapturedEvent,
  LogAppendedEvent,
  LogCheckpointEvent,
  PriceSampledEvent,
  RecordPriceSamplesCommand,
} from '../src/index.ts';
import { treeRoot } from '../src/log/merkle.ts';
import type { LeverDriver } from './lever-driver.ts';
import { BTC, BTC_USDT, ETH, ETH_USDT, USDT, leverSetUp } from './lever-driver.ts';
import { stateWithoutCounters } from './test-exchange.ts';

const ORIGIN = 'exchange.example/fairex-log';
const LOG_EVENTS = new Set(['logAppended', 'logCheckpoint', 'liabilitiesCaptured', 'liabilitiesPublished']);
const WALLETS = ['change', 'lever', 'micro', 'ico', 'miner', 'defi'] as const;

function samplesOf(
  driver: LeverDriver,
  prices: [marketId: number, priceTicks: number][],
): RecordPriceSamplesCommand {
  return {
    type: 'recordPriceSamples',
    maxAgeMs: 10_000,
    minSources: 1,
    headIntervalMs: 60_000,
    samples: prices.map(([marketId, priceTicks]) => [marketId, [['test', priceTicks, driver.timeMs]]]),
  };
}

function ofType<T extends EngineEvent['type']>(
  events: readonly EngineEvent[],
  type: T,
): Extract<EngineEvent, { type: T }>[] {
  return events.filter((event): event is Extract<EngineEvent, { type: T }> => event.type === type);
}

function started(intervalMs = 1_000): LeverDriver {
  const driver = leverSetUp();
  driver.ok({ type: 'startLog', origin: ORIGIN, checkpointIntervalMs: intervalMs });
  return driver;
}

function hexOf(bytes: Uint8Array | Buffer): string {
  return Buffer.from(bytes).toString('hex');
}

function leafHashOf(entry: string): string {
  return hexOf(
    createHash('sha256')
      .update(Buffer.concat([Buffer.from([0]), Buffer.from(entry, 'utf8')]))
      .digest(),
  );
}

/** Users with money in every wallet kind they can reach, a resting order's hold and open positions. */
function busyExchange(): LeverDriver {
  const driver = started();
  driver.fund(7, 100_000n);
  driver.fund(8, 50_000n);
  driver.ok({ type: 'deposit', userId: 9, currencyId: BTC, amount: 40n });
  driver.ok({ type: 'deposit', userId: 9, currencyId: USDT, amount: 5_000n });
  driver.ok({ type: 'deposit', userId: 10, currencyId: ETH, amount: 3n });
  driver.ok({
    type: 'placeOrder',
    owner: 9,
    marketId: BTC_USDT,
    side: 'buy',
    kind: 'limit',
    priceTicks: 900,
    quantityLots: 2,
  });
  driver.ok({ type: 'openLeverPosition', userId: 7, marketId: BTC_USDT, side: 1, share: 2, multiple: 10 });
  driver.ok({ type: 'openLeverPosition', userId: 7, marketId: ETH_USDT, side: 2, share: 1, multiple: 5 });
  driver.ok({ type: 'openLeverPosition', userId: 8, marketId: BTC_USDT, side: 2, share: 3, multiple: 20 });
  driver.ok(
    samplesOf(driver, [
      [BTC_USDT, 1_010],
      [ETH_USDT, 99],
    ]),
  );
  return driver;
}

describe('the entry encodings', () => {
  it('match the test vectors of docs/transparency.md', () => {
    const prices = pricesEntry(1_750_000_000_000, [
      ['BTC/USDT', 42, 'a'.repeat(64)],
      ['ETH/USDT', 41, 'b'.repeat(64)],
    ]);
    expect(leafHashOf(prices)).toBe('9e1092dba0e536f9412e23df8a9dd98e0e58aa358291ad61ac6639da7f782850');
    const liabilities = liabilitiesEntry({
      snapshotId: '2025-06-15',
      seq: 123_456,
      timeMs: 1_749_945_600_000,
      leafCount: 2,
      root: 'c'.repeat(64),
      columns: ['BTC', 'USDT', 'USDT:upnl+', 'USDT:upnl-'],
      totals: [150_000_000n, 2_500_000_000n, 1_200_000n, 300_000n],
      identity: [
        { currency: 'BTC', users: 150_000_000n, exchange: 10_000_000n, outside: -160_000_000n },
        { currency: 'USDT', users: 2_500_000_000n, exchange: 500_000_000n, outside: -3_000_000_000n },
      ],
    });
    expect(leafHashOf(liabilities)).toBe('6ea23395b1ad3a15f14dc967d4cf84e268208bc41a2da456d9b96aef65ff05bd');
  });
});

describe('before startLog', () => {
  it('appends nothing, writes no section, and leaves the state hash of an engine without the area', () => {
    const withLog = leverSetUp();
    withLog.ok(
      samplesOf(withLog, [
        [BTC_USDT, 1_001],
        [ETH_USDT, 101],
      ]),
    );
    const without = AREAS.filter((area) => area.name !== 'log');
    const replica = Engine.create({ areas: without });
    for (const envelope of withLog.envelopes) replica.apply(envelope);
    expect(withLog.events.some((event) => LOG_EVENTS.has(event.type))).toBe(false);
    expect(JSON.parse(withLog.engine.snapshot())).not.toHaveProperty('log');
    expect(withLog.engine.stateHash()).toBe(replica.stateHash());
    expect(withLog.engine.log.status()).toMatchObject({ started: false, size: 0, checkpoint: null });
  });

  it('refuses a capture or a publish', () => {
    const driver = leverSetUp();
    expect(driver.apply({ type: 'captureLiabilities', snapshotId: 'd1' }).code).toBe(
      LogResultCode.logNotStarted,
    );
    expect(
      driver.apply({
        type: 'publishLiabilities',
        snapshotId: 'd1',
        root: '00'.repeat(32),
        leafCount: 0,
        columns: [],
        totals: [],
      }).code,
    ).toBe(LogResultCode.logNotStarted);
  });
});

describe('startLog', () => {
  it('keeps its origin, lets a repeat change the interval, and refuses a bad origin or interval', () => {
    const driver = started(1_000);
    expect(driver.apply({ type: 'startLog', origin: 'other/log', checkpointIntervalMs: 1_000 }).code).toBe(
      LogResultCode.logOriginFixed,
    );
    driver.ok({ type: 'startLog', origin: ORIGIN, checkpointIntervalMs: 5_000 });
    expect(driver.engine.log.checkpointIntervalMs()).toBe(5_000);
    const fresh = leverSetUp();
    for (const origin of ['', 'has space', 'a+b', 'line\nbreak', 'x'.repeat(201)])
      expect(fresh.apply({ type: 'startLog', origin, checkpointIntervalMs: 1_000 }).code).toBe(
        LogResultCode.logInvalidOrigin,
      );
    expect(fresh.apply({ type: 'startLog', origin: ORIGIN, checkpointIntervalMs: 0 }).code).toBe(
      ResultCode.invalidField,
    );
    expect(fresh.engine.log.status().started).toBe(false);
  });
});

describe('price batches', () => {
  it('appends one leaf per command with every market it sampled, ascending by symbol', () => {
    const driver = started();
    // ETH/USDT listed first: the entry still lists BTC/USDT first.
    const outcome = driver.ok(
      samplesOf(driver, [
        [ETH_USDT, 102],
        [BTC_USDT, 1_003],
      ]),
    );
    const sampled = ofType(outcome.events, 'priceSampled');
    const line = (event: PriceSampledEvent | undefined) => `${event?.seq} ${event?.hash}`;
    const btc = sampled.find((event) => event.marketId === BTC_USDT);
    const eth = sampled.find((event) => event.marketId === ETH_USDT);
    const entry =
      `fairex-log-v1 prices\ntime ${driver.timeMs}\n` + `BTC/USDT ${line(btc)}\nETH/USDT ${line(eth)}\n`;
    const appended = ofType(outcome.events, 'logAppended');
    expect(appended).toEqual([
      {
        type: 'logAppended',
        index: 0,
        kind: 'prices',
        entry,
        leafHash: leafHashOf(entry),
        nodes: [[0, 0, leafHashOf(entry)]],
      },
    ]);
    // The log's events follow the command's own.
    expect(outcome.events.findIndex((event) => event.type === 'logAppended')).toBeGreaterThan(
      outcome.events.findLastIndex((event) => event.type === 'priceSampled'),
    );
    // The first append takes a checkpoint: a tree of one leaf has the leaf as its root.
    expect(ofType(outcome.events, 'logCheckpoint')).toEqual([
      { type: 'logCheckpoint', origin: ORIGIN, size: 1, root: leafHashOf(entry), timeMs: driver.timeMs },
    ]);
    // A command that samples nothing (an index price, an order) appends nothing.
    const index = driver.ok({ type: 'recordIndexPrice', marketId: BTC_USDT, priceTicks: 1_000 });
    expect(ofType(index.events, 'logAppended')).toEqual([]);
    expect(driver.engine.log.status().size).toBe(1);
  });

  it('takes a checkpoint when an append enters a later interval bucket', () => {
    const driver = started(1_000);
    driver.timeMs = Math.ceil(driver.timeMs / 1_000) * 1_000 + 10_000; // t: the start of a bucket
    const checkpoints: number[] = [];
    for (const advance of [0, 300, 300, 300, 300, 2_500, 1]) {
      const outcome = driver.ok(samplesOf(driver, [[BTC_USDT, 1_000]]), advance);
      checkpoints.push(ofType(outcome.events, 'logCheckpoint').length);
    }
    // times: t (the first append: a checkpoint), t+300, t+600, t+900 (the same bucket), t+1200 (the next),
    // t+3700 (two later), t+3701 (the same)
    expect(checkpoints).toEqual([1, 0, 0, 0, 1, 1, 0]);
    expect(driver.engine.log.status().checkpoint?.size).toBe(6);
  });
});

describe('replay and snapshot', () => {
  function journal(): LeverDriver {
    const driver = busyExchange();
    for (let second = 0; second < 40; second += 1) {
      driver.ok(
        samplesOf(driver, [
          [BTC_USDT, 1_000 + (second % 7)],
          [ETH_USDT, 100 - (second % 3)],
        ]),
        400,
      );
      if (second === 20) driver.ok({ type: 'captureLiabilities', snapshotId: 'day-1' });
    }
    const captured = ofType(driver.events, 'liabilitiesCaptured')[0] as LiabilitiesCapturedEvent;
    driver.ok({
      type: 'publishLiabilities',
      snapshotId: 'day-1',
      root: 'cd'.repeat(32),
      leafCount: captured.users.length,
      columns: captured.columns,
      totals: captured.totals,
    });
    driver.ok(samplesOf(driver, [[BTC_USDT, 1_000]]), 3_000);
    return driver;
  }

  const logText = (events: readonly EngineEvent[]) =>
    encodeEvents(events.filter((event) => LOG_EVENTS.has(event.type)));

  it('reproduces every leaf, node and checkpoint byte for byte, applied or quietly replayed', () => {
    const live = journal();
    const replica = Engine.create();
    const replayed: EngineEvent[] = [];
    for (const envelope of live.envelopes) replayed.push(...replica.apply(envelope).events);
    expect(logText(replayed)).toBe(logText(live.events));
    expect(replica.stateHash()).toBe(live.engine.stateHash());
    const quiet = Engine.create();
    for (const envelope of live.envelopes) quiet.replay(envelope);
    expect(quiet.stateHash()).toBe(live.engine.stateHash());
    expect(quiet.log.status()).toEqual(live.engine.log.status());
  });

  it('restores from a snapshot taken midway (a capture pending) and continues to the same events', () => {
    const live = journal();
    const half = live.envelopes.findIndex((envelope) => envelope.command.type === 'captureLiabilities') + 3;
    const first = Engine.create();
    for (const envelope of live.envelopes.slice(0, half)) first.apply(envelope);
    const text = first.snapshot();
    expect(JSON.parse(text).log.pending.snapshotId).toBe('day-1');
    const restored = Engine.restore(text);
    expect(restored.snapshot()).toBe(text);
    const rest: EngineEvent[] = [];
    const liveRest: EngineEvent[] = [];
    const fresh = Engine.create();
    for (const [at, envelope] of live.envelopes.entries()) {
      const events = fresh.apply(envelope).events;
      if (at >= half) liveRest.push(...events);
    }
    for (const envelope of live.envelopes.slice(half)) rest.push(...restored.apply(envelope).events);
    expect(logText(rest)).toBe(logText(liveRest));
    expect(restored.stateHash()).toBe(live.engine.stateHash());
    restored.checkInvariants();
  });

  it('round-trips every log event through the codec', () => {
    const events = journal().events.filter((event) => LOG_EVENTS.has(event.type));
    expect(new Set(events.map((event) => event.type))).toEqual(LOG_EVENTS);
    expect(decodeEvents(encodeEvents(events))).toEqual(events);
  });
});

describe('liabilities', () => {
  it('captures each user balance over every wallet, holds included, and the open positions P&L', () => {
    const driver = busyExchange();
    const engine = driver.engine;
    const outcome = driver.ok({ type: 'captureLiabilities', snapshotId: 'day-1' });
    const [captured] = ofType(outcome.events, 'liabilitiesCaptured');
    if (captured === undefined) throw new Error('no capture');
    expect(captured.columns).toEqual(['BTC', 'ETH', 'USDT', 'USDT:upnl+', 'USDT:upnl-']);
    expect(captured.seq).toBe(driver.seq);
    const currencies = [BTC, ETH, USDT];
    for (const [userId, amounts] of captured.users) {
      for (const amount of amounts) expect(amount >= 0n).toBe(true);
      expect(amounts.some((amount) => amount !== 0n)).toBe(true);
      currencies.forEach((currencyId, column) => {
        let balance = 0n;
        for (const wallet of WALLETS) {
          const { available, locked } = engine.ledger.balance(userId, wallet, currencyId);
          balance += available + locked;
        }
        expect(amounts[column]).toBe(balance);
      });
      let plus = 0n;
      let minus = 0n;
      for (const position of engine.lever.positions(userId, 1))
        if (position.profit > 0n) plus += position.profit;
        else minus -= position.profit;
      expect([amounts[3], amounts[4]]).toEqual([plus, minus]);
    }
    expect(captured.users.map(([userId]) => userId)).toEqual([7, 8, 9, 10]);
    // The margins are held on the lever wallets: counted once, inside the balance.
    expect(engine.ledger.balance(7, 'lever', USDT).locked > 0n).toBe(true);
    // Both P&L columns are used: the marks moved both ways against the three positions.
    expect(captured.totals[3] !== 0n && captured.totals[4] !== 0n).toBe(true);
    captured.columns.forEach((_, column) =>
      expect(captured.totals[column]).toBe(
        captured.users.reduce((sum, [, amounts]) => sum + (amounts[column] as bigint), 0n),
      ),
    );
    for (const identity of captured.identity) {
      const column = captured.columns.indexOf(identity.currency);
      expect(identity.users).toBe(captured.totals[column]);
      expect(identity.users + identity.exchange + identity.outside).toBe(0n);
    }
    expect(captured.identity.map(({ currency }) => currency)).toEqual(['BTC', 'ETH', 'USDT']);
    expect(engine.log.status().pendingLiabilities).toEqual({ snapshotId: 'day-1', seq: driver.seq });
  });

  it('refuses a publish that does not match the capture and changes nothing', () => {
    const driver = busyExchange();
    const outcome = driver.ok({ type: 'captureLiabilities', snapshotId: 'day-1' });
    const [captured] = ofType(outcome.events, 'liabilitiesCaptured');
    if (captured === undefined) throw new Error('no capture');
    const good = {
      type: 'publishLiabilities',
      snapshotId: 'day-1',
      root: 'ab'.repeat(32),
      leafCount: captured.users.length,
      columns: captured.columns,
      totals: captured.totals,
    } as const;
    const lowered = [...captured.totals];
    lowered[2] = (lowered[2] as bigint) - 1n;
    const before = stateWithoutCounters(driver.engine);
    const refusals: [Command, number][] = [
      [{ ...good, totals: lowered }, LogResultCode.logTotalsMismatch],
      [{ ...good, totals: captured.totals.slice(1) }, LogResultCode.logTotalsMismatch],
      [{ ...good, columns: [...captured.columns].reverse() }, LogResultCode.logTotalsMismatch],
      [{ ...good, leafCount: captured.users.length + 1 }, LogResultCode.logTotalsMismatch],
      [{ ...good, snapshotId: 'day-2' }, LogResultCode.logCaptureNotPending],
      [{ ...good, root: 'AB'.repeat(32) }, LogResultCode.logInvalidRoot],
      [{ ...good, snapshotId: 'a b' }, LogResultCode.logInvalidSnapshotId],
      [{ ...good, leafCount: -1 }, ResultCode.invalidField],
    ];
    for (const [command, code] of refusals) {
      const refused = driver.apply(command);
      expect(refused.code).toBe(code);
      expect(refused.events).toEqual([]);
    }
    expect(stateWithoutCounters(driver.engine)).toBe(before);

    const published = driver.ok(good);
    const [appended] = ofType(published.events, 'logAppended');
    const size = driver.engine.log.status().size;
    const identity = captured.identity
      .map(
        ({ currency, users, exchange, outside }) => `identity ${currency} ${users} ${exchange} ${outside}\n`,
      )
      .join('');
    const totals = captured.columns.map((column, at) => `total ${column} ${captured.totals[at]}\n`).join('');
    expect(appended?.entry).toBe(
      `fairex-log-v1 liabilities\nsnapshot day-1\nseq ${captured.seq}\ntime ${captured.timeMs}\n` +
        `leaves ${captured.users.length}\nroot ${'ab'.repeat(32)}\n${totals}${identity}`,
    );
    expect(appended).toMatchObject({ kind: 'liabilities', index: size - 1 });
    // The checkpoint is forced although the price batch of the same bucket took one already.
    expect(ofType(published.events, 'logCheckpoint')).toMatchObject([{ size }]);
    expect(ofType(published.events, 'liabilitiesPublished')).toEqual([
      {
        type: 'liabilitiesPublished',
        snapshotId: 'day-1',
        index: size - 1,
        root: 'ab'.repeat(32),
        leafCount: 4,
      },
    ]);
    expect(driver.engine.log.status().pendingLiabilities).toBeNull();
    // Published once: a second publish finds nothing pending.
    expect(driver.apply(good).code).toBe(LogResultCode.logCaptureNotPending);
  });
});

describe('the root', () => {
  it('after any number of appends is the RFC 9162 root over the nodes the events carried', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 2_500 }), fc.boolean()), { minLength: 1, maxLength: 70 }),
        fc.integer({ min: 1, max: 3_000 }),
        (steps, intervalMs) => {
          const driver = started(intervalMs);
          driver.checkEachCommand = false;
          const nodes = new Map<string, Uint8Array>();
          const checkpoints: LogCheckpointEvent[] = [];
          let appended = 0;
          for (const [advance, both] of steps) {
            const prices: [number, number][] = both
              ? [
                  [ETH_USDT, 100],
                  [BTC_USDT, 1_000],
                ]
              : [[BTC_USDT, 1_000]];
            const { events } = driver.ok(samplesOf(driver, prices), advance);
            for (const event of ofType(events, 'logAppended') as LogAppendedEvent[]) {
              expect(event.index).toBe(appended);
              appended += 1;
              for (const [level, index, hash] of event.nodes)
                nodes.set(`${level}:${index}`, Buffer.from(hash, 'hex'));
            }
            checkpoints.push(...ofType(events, 'logCheckpoint'));
          }
          driver.engine.checkInvariants();
          const read = (level: number, index: number) => {
            const hash = nodes.get(`${level}:${index}`);
            if (hash === undefined) throw new Error(`node ${level}:${index} was never emitted`);
            return hash;
          };
          const status = driver.engine.log.status();
          expect(status.size).toBe(steps.length);
          expect(status.root).toBe(hexOf(treeRoot(read, status.size)));
          for (const checkpoint of checkpoints)
            expect(checkpoint.root).toBe(hexOf(treeRoot(read, checkpoint.size)));
        },
      ),
      { numRuns: 25 },
    );
  });
});
