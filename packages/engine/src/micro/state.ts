import type { Hold } from '../ledger/holds.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { MAX_CURRENCY_ID } from '../limits.ts';
import type { MicroDirection, MicroPriceKind, MicroSample } from './rules.ts';

/** Default staleness bound of the void rule: a sample farther than this from acceptance or expiry voids. */
export const DEFAULT_MICRO_MAX_SAMPLE_AGE_MS = 3_000;

export type MicroCurrencyConfig = {
  readonly currencyId: number;
  readonly feeBp: number;
  readonly minStake: bigint;
  readonly maxStake: bigint;
  readonly presets: readonly bigint[];
  readonly maxOpenOrders: number;
};

/** A running order. `open` is set by the first sample of its market strictly after acceptance. */
export type MicroOrder = {
  readonly orderId: number;
  readonly userId: number;
  readonly marketId: number;
  readonly currencyId: number;
  readonly direction: MicroDirection;
  readonly seconds: number;
  readonly profitRatioBp: number;
  readonly stake: bigint;
  readonly fee: bigint;
  /** stake x profit ratio, rounded down: held on the house reserve while the order runs. */
  readonly profit: bigint;
  readonly acceptedMs: number;
  readonly expiryMs: number;
  /** The staleness bound in force at acceptance: the rule an order is settled by never changes under it. */
  readonly maxSampleAgeMs: number;
  /** The recorded price it settles on, fixed at acceptance (rule v2 'index'; v1 'mark' for older orders). */
  readonly settleOn: MicroPriceKind;
  open: MicroSample | null;
  /** The stake on the user's micro wallet (hold owner `micro`, ref: the order id). */
  readonly stakeHold: Hold;
  /** The fee on the fees account's micro wallet (`micro.fee`); null without a fee. */
  readonly feeHold: Hold | null;
  /** The possible profit on the house reserve (`micro.reserve`); null when the profit is 0. */
  readonly reserveHold: Hold | null;
};

/** Up and down profits of the running orders of one pair, currency and expiry second. */
export type MicroBucket = { up: bigint; down: bigint };

export function capKey(marketId: number, currencyId: number): number {
  return marketId * (MAX_CURRENCY_ID + 1) + currencyId;
}

export function bucketKey(order: { marketId: number; currencyId: number; expiryMs: number }): string {
  return `${order.marketId}:${order.currencyId}:${Math.floor(order.expiryMs / 1000)}`;
}

function openCountKey(userId: number, currencyId: number): number {
  return userId * (MAX_CURRENCY_ID + 1) + currencyId;
}

function before(a: MicroOrder, b: MicroOrder): boolean {
  return a.expiryMs < b.expiryMs || (a.expiryMs === b.expiryMs && a.orderId < b.orderId);
}

/**
 * The micro area's state: configuration and running orders, plus indexes derived from the orders (expiry
 * heap, orders awaiting their open sample per market, exposure buckets, open counts), which a restore
 * rebuilds with `addOrder`. Settled orders leave the state; their record lives in the projections.
 */
export class MicroState {
  /** The engine's ledger (the area restores its orders' holds into it). */
  readonly ledger: Ledger;
  readonly seconds = new Map<number, number>();
  readonly currencies = new Map<number, MicroCurrencyConfig>();
  /** Exposure caps by capKey(marketId, currencyId). */
  readonly caps = new Map<number, bigint>();
  maxSampleAgeMs = DEFAULT_MICRO_MAX_SAMPLE_AGE_MS;
  nextOrderId = 1;
  readonly orders = new Map<number, MicroOrder>();
  readonly buckets = new Map<string, MicroBucket>();
  private readonly openCounts = new Map<number, number>();
  /** Per market, orders without an open sample in acceptance order (settled ones skipped lazily). */
  private readonly awaitingOpen = new Map<number, { orders: MicroOrder[]; head: number }>();
  /** Min-heap by (expiryMs, orderId); settled orders are skipped lazily. */
  private readonly heap: MicroOrder[] = [];

  constructor(ledger: Ledger) {
    this.ledger = ledger;
  }

  isEmpty(): boolean {
    return (
      this.seconds.size === 0 &&
      this.currencies.size === 0 &&
      this.caps.size === 0 &&
      this.orders.size === 0 &&
      this.nextOrderId === 1 &&
      this.maxSampleAgeMs === DEFAULT_MICRO_MAX_SAMPLE_AGE_MS
    );
  }

  openCount(userId: number, currencyId: number): number {
    return this.openCounts.get(openCountKey(userId, currencyId)) ?? 0;
  }

  bucket(order: { marketId: number; currencyId: number; expiryMs: number }): MicroBucket {
    return this.buckets.get(bucketKey(order)) ?? { up: 0n, down: 0n };
  }

  addOrder(order: MicroOrder): void {
    this.orders.set(order.orderId, order);
    const countKey = openCountKey(order.userId, order.currencyId);
    this.openCounts.set(countKey, (this.openCounts.get(countKey) ?? 0) + 1);
    const key = bucketKey(order);
    const bucket = this.buckets.get(key) ?? { up: 0n, down: 0n };
    if (order.direction === 1) bucket.up += order.profit;
    else bucket.down += order.profit;
    this.buckets.set(key, bucket);
    if (order.open === null) {
      let queue = this.awaitingOpen.get(order.marketId);
      if (queue === undefined) {
        queue = { orders: [], head: 0 };
        this.awaitingOpen.set(order.marketId, queue);
      }
      queue.orders.push(order);
    }
    this.heapPush(order);
  }

  removeOrder(order: MicroOrder): void {
    this.orders.delete(order.orderId);
    const countKey = openCountKey(order.userId, order.currencyId);
    const count = (this.openCounts.get(countKey) ?? 1) - 1;
    if (count === 0) this.openCounts.delete(countKey);
    else this.openCounts.set(countKey, count);
    const key = bucketKey(order);
    const bucket = this.buckets.get(key);
    if (bucket !== undefined) {
      if (order.direction === 1) bucket.up -= order.profit;
      else bucket.down -= order.profit;
      if (bucket.up === 0n && bucket.down === 0n) this.buckets.delete(key);
    }
  }

  /** Running orders of a market still awaiting their open sample and accepted before `timeMs`, oldest first. */
  takeAwaitingOpen(marketId: number, timeMs: number): MicroOrder[] {
    const queue = this.awaitingOpen.get(marketId);
    if (queue === undefined) return [];
    const taken: MicroOrder[] = [];
    while (queue.head < queue.orders.length) {
      const order = queue.orders[queue.head] as MicroOrder;
      if (this.orders.get(order.orderId) !== order || order.open !== null) {
        queue.head += 1;
        continue;
      }
      if (order.acceptedMs >= timeMs) break;
      taken.push(order);
      queue.head += 1;
    }
    if (queue.head === queue.orders.length) this.awaitingOpen.delete(marketId);
    else if (queue.head > 1024 && queue.head * 2 > queue.orders.length) {
      queue.orders.splice(0, queue.head);
      queue.head = 0;
    }
    return taken;
  }

  /** The running order expiring first if it expired strictly before `timeMs`, taken off the heap. */
  takeExpiredBefore(timeMs: number): MicroOrder | undefined {
    for (;;) {
      const top = this.heap[0];
      if (top === undefined) return undefined;
      if (this.orders.get(top.orderId) !== top) {
        this.heapPop();
        continue;
      }
      if (top.expiryMs >= timeMs) return undefined;
      this.heapPop();
      return top;
    }
  }

  private heapPush(order: MicroOrder): void {
    const heap = this.heap;
    heap.push(order);
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!before(order, heap[parent] as MicroOrder)) break;
      heap[index] = heap[parent] as MicroOrder;
      index = parent;
    }
    heap[index] = order;
  }

  private heapPop(): void {
    const heap = this.heap;
    const last = heap.pop() as MicroOrder;
    if (heap.length === 0) return;
    let index = 0;
    for (;;) {
      const left = index * 2 + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child =
        right < heap.length && before(heap[right] as MicroOrder, heap[left] as MicroOrder) ? right : left;
      if (!before(heap[child] as MicroOrder, last)) break;
      heap[index] = heap[child] as MicroOrder;
      index = child;
    }
    heap[index] = last;
  }
}
