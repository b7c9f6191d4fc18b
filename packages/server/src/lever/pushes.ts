// `lever_trade` to the owner's room, from committed batches only (what a user is told has happened is
// durable), with the risk rate, the totals, and the live holdings and entries as JSON text (spec 01
// section 7). Two causes:
// - a change of the user's own lever records: one push per user and quote currency the batch touched, at once;
// - a mark move of a pair: profits and the risk rate of everyone holding it moved. Each holder (the engine's
//   `holdersOf`, proportional to the answer) gets a push, at most one per pair per MARK_PUSH_INTERVAL_MS:
//   the first at once, later ones folded into one trailing push that reads the state when it is sent. Only
//   holders a socket may reach are read and pushed (`mayReachUser`): a mark costs what its audience costs.
import type { Command, EngineEvent } from '@fairex/engine';
import type { LeverTradePayload } from '@fairex/shared';
import { formatDecimal } from '@fairex/shared';
import type { CommittedBatch } from '../engine-runner/index.ts';
import type { Realtime } from '../realtime/index.ts';
import type { LeverService } from './service.ts';

/** The least time between two mark pushes to one user for one pair. */
export const MARK_PUSH_INTERVAL_MS = 250;

export interface LeverPushesOptions {
  service: Pick<LeverService, 'dealAll' | 'holdersOf'>;
  realtime: Pick<Realtime, 'toUser' | 'mayReachUser'>;
  scaleOf(currencyId: number): number;
  onCommitted(listener: (batch: CommittedBatch<Command, EngineEvent>) => void): () => void;
  onError?(error: unknown): void;
  /** Overrides MARK_PUSH_INTERVAL_MS (tests). */
  markIntervalMs?: number;
}

/** The users and quote currencies a batch's lever events touched, with the profit realised in it. */
export function touchedAccounts(batch: CommittedBatch<Command, EngineEvent>): Map<string, bigint> {
  const touched = new Map<string, bigint>();
  for (const { outcome } of batch.entries) {
    for (const event of outcome.events) {
      switch (event.type) {
        case 'leverEntryPlaced':
        case 'leverEntryRevoked':
        case 'leverPositionOpened':
        case 'leverOvernightCharged':
        case 'leverLiquidated': {
          const key = `${event.userId}:${event.quoteCurrencyId}`;
          touched.set(key, touched.get(key) ?? 0n);
          break;
        }
        case 'leverPositionClosed': {
          const key = `${event.userId}:${event.quoteCurrencyId}`;
          touched.set(key, (touched.get(key) ?? 0n) + event.profit);
          break;
        }
        case 'leverStopsSet': {
          // Stops carry no currency: the push covers every currency of the user (rarely more than one).
          const key = `${event.userId}:*`;
          touched.set(key, touched.get(key) ?? 0n);
          break;
        }
        default:
          break;
      }
    }
  }
  return touched;
}

/** The pairs whose mark a batch moved (price samples with a mark). */
export function markedPairs(batch: CommittedBatch<Command, EngineEvent>): Set<number> {
  const marked = new Set<number>();
  for (const { outcome } of batch.entries)
    for (const event of outcome.events)
      if (event.type === 'priceSampled' && event.markTicks !== null) marked.add(event.marketId);
  return marked;
}

/**
 * At most one call per key per interval: the first runs at once, the rest fold into one trailing call at
 * the end of the interval. Only keys pushed within the last interval are kept.
 */
export class Throttle {
  readonly #intervalMs: number;
  readonly #windows = new Map<string, { timer: ReturnType<typeof setTimeout>; run: (() => void) | null }>();

  constructor(intervalMs: number) {
    this.#intervalMs = intervalMs;
  }

  call(key: string, run: () => void): void {
    const window = this.#windows.get(key);
    if (window !== undefined) {
      window.run = run;
      return;
    }
    run();
    this.#open(key);
  }

  #open(key: string): void {
    const window = {
      run: null as (() => void) | null,
      timer: setTimeout(() => {
        this.#windows.delete(key);
        const trailing = window.run;
        if (trailing === null) return;
        trailing();
        this.#open(key);
      }, this.#intervalMs),
    };
    this.#windows.set(key, window);
  }

  get size(): number {
    return this.#windows.size;
  }

  stop(): void {
    for (const window of this.#windows.values()) clearTimeout(window.timer);
    this.#windows.clear();
  }
}

export function startLeverPushes(options: LeverPushesOptions): () => void {
  const throttle = new Throttle(options.markIntervalMs ?? MARK_PUSH_INTERVAL_MS);
  let stopped = false;

  /** Pushes the user's state in each of `currencies` (all of the user's when '*'). */
  const push = async (userId: number, currency: number | '*', realised: bigint): Promise<void> => {
    const all = await options.service.dealAll(userId);
    if (stopped) return;
    const currencies = currency === '*' ? all.risks.map((risk) => risk.legal_id) : [currency];
    for (const legalId of currencies) {
      const risk = all.risks.find((candidate) => candidate.legal_id === legalId);
      const scale = options.scaleOf(legalId);
      const payload: LeverTradePayload = {
        type: 'lever_trade',
        legal_id: legalId,
        hazard_rate: risk?.hazard_rate ?? '0',
        profits_all: risk?.profits_all ?? formatDecimal(0n, scale),
        profits: formatDecimal(realised, scale),
        caution_money_all: risk?.caution_money_all ?? formatDecimal(0n, scale),
        trades_all: JSON.stringify(all.trades_all.filter((row) => row.legal_id === legalId)),
        trades_entrust: JSON.stringify(all.trades_entrust.filter((row) => row.legal_id === legalId)),
      };
      options.realtime.toUser(userId, 'lever_trade', payload);
    }
  };
  const fail = (error: unknown) => options.onError?.(error);

  const unsubscribe = options.onCommitted((batch) => {
    const touched = touchedAccounts(batch);
    for (const [key, realised] of touched) {
      const [user, currency] = key.split(':');
      void push(Number(user), currency === '*' ? '*' : Number(currency), realised).catch(fail);
    }
    for (const marketId of markedPairs(batch)) {
      const holders = options.service.holdersOf(marketId);
      if (holders === undefined) continue;
      const { quoteCurrencyId } = holders;
      for (const userId of holders.userIds) {
        // Told already by this batch's own push, which reads the same state.
        if (touched.has(`${userId}:${quoteCurrencyId}`) || touched.has(`${userId}:*`)) continue;
        if (!options.realtime.mayReachUser(userId)) continue;
        throttle.call(`${userId}:${marketId}`, () => {
          void push(userId, quoteCurrencyId, 0n).catch(fail);
        });
      }
    }
  });
  return () => {
    stopped = true;
    unsubscribe();
    throttle.stop();
  };
}
