// The P2P area's state: configuration, merchants, reference prices, open ads and open orders, today's
// cancellation counters, and the payment-window queues the clock walks.
import type { Hold } from '../ledger/holds.ts';
import type { Ledger } from '../ledger/ledger.ts';

export type P2pSide = 'buy' | 'sell';
export type P2pOrderStatus = 'unpaid' | 'paid' | 'appealed' | 'completed' | 'cancelled';
export type P2pEnd =
  'released' | 'buyerCancelled' | 'timedOut' | 'acceptorRejected' | 'arbiterToBuyer' | 'arbiterToSeller';

/** Fiat codes an ad may quote (two decimals each). */
export const P2P_FIAT_CODES: readonly string[] = ['CNY', 'USD', 'HKD', 'KRW', 'JPY', 'EUR'];
/** Payment windows offered, in minutes. */
export const P2P_WINDOWS_MS: readonly number[] = [10, 15, 20, 30, 45, 60].map((minutes) => minutes * 60_000);
export const P2P_DEFAULT_APPEAL_WAIT_MS = 10 * 60_000;
export const P2P_DEFAULT_CANCELLATIONS_PER_DAY = 3;

export interface P2pAd {
  readonly adId: number;
  readonly userId: number;
  readonly side: P2pSide;
  readonly currencyId: number;
  readonly fiat: string;
  readonly acceptor: boolean;
  priceCents: bigint;
  floatBp: number | null;
  minFiatCents: bigint;
  maxFiatCents: bigint;
  windowMs: number;
  methodIds: number[];
  terms: string;
  readonly total: bigint;
  /** Coins not in any order yet (sell: covered by the ad's hold together with their maker fee). */
  remaining: bigint;
  status: 'online' | 'paused';
  /** A sell ad's escrow (owner `p2p.ad`, ref the ad id); null for a buy ad or once empty. */
  hold: Hold | null;
}

export interface P2pOrder {
  readonly orderId: number;
  readonly adId: number;
  readonly buyerId: number;
  readonly sellerId: number;
  readonly makerId: number;
  readonly currencyId: number;
  readonly fiat: string;
  readonly priceCents: bigint;
  readonly amount: bigint;
  readonly fiatCents: bigint;
  readonly buyerFee: bigint;
  readonly sellerFee: bigint;
  readonly methodId: number;
  readonly acceptor: boolean;
  readonly createdMs: number;
  readonly deadlineMs: number;
  status: 'unpaid' | 'paid' | 'appealed';
  paidMs: number;
  /** The escrow: amount plus the seller's fee, on the seller's change wallet (owner `p2p`, ref the order id). */
  readonly hold: Hold;
}

export class P2pState {
  readonly ledger: Ledger;
  makerFeeBp = 0;
  takerFeeBp = 0;
  appealWaitMs = P2P_DEFAULT_APPEAL_WAIT_MS;
  cancellationsPerDay = P2P_DEFAULT_CANCELLATIONS_PER_DAY;
  /** Approved merchants: user id -> acceptor flag. */
  readonly merchants = new Map<number, boolean>();
  /** Reference prices by `${currencyId}:${fiat}`, fiat cents per coin. */
  readonly references = new Map<string, bigint>();
  /** Ads online or paused (a closed ad leaves the state). */
  readonly ads = new Map<number, P2pAd>();
  /** Orders not ended. */
  readonly orders = new Map<number, P2pOrder>();
  /** The day (Asia/Shanghai) the counters are of, and each user's cancellations that day. */
  counterDay = 0;
  readonly cancellations = new Map<number, number>();
  /**
   * Unpaid orders per payment window, in creation order: within one window length deadlines never decrease,
   * so the clock looks at each queue's head only. Paid or ended orders are skipped when they reach the head.
   */
  readonly windowQueues = new Map<number, P2pOrder[]>();
  readonly windowHeads = new Map<number, number>();
  nextAdId = 1;
  nextOrderId = 1;
  /** Open orders per user (both sides) and open ads per user: bounded. */
  readonly openOrdersByUser = new Map<number, number>();

  constructor(ledger: Ledger) {
    this.ledger = ledger;
  }

  isEmpty(): boolean {
    return (
      this.makerFeeBp === 0 &&
      this.takerFeeBp === 0 &&
      this.appealWaitMs === P2P_DEFAULT_APPEAL_WAIT_MS &&
      this.cancellationsPerDay === P2P_DEFAULT_CANCELLATIONS_PER_DAY &&
      this.merchants.size === 0 &&
      this.references.size === 0 &&
      this.ads.size === 0 &&
      this.orders.size === 0 &&
      this.cancellations.size === 0 &&
      this.nextAdId === 1 &&
      this.nextOrderId === 1
    );
  }

  queueUnpaid(order: P2pOrder): void {
    const window = order.deadlineMs - order.createdMs;
    let queue = this.windowQueues.get(window);
    if (queue === undefined) {
      queue = [];
      this.windowQueues.set(window, queue);
      this.windowHeads.set(window, 0);
    }
    queue.push(order);
  }

  countOpen(userId: number, delta: number): void {
    const count = (this.openOrdersByUser.get(userId) ?? 0) + delta;
    if (count === 0) this.openOrdersByUser.delete(userId);
    else this.openOrdersByUser.set(userId, count);
  }
}

export function referenceKey(currencyId: number, fiat: string): string {
  return `${currencyId}:${fiat}`;
}
