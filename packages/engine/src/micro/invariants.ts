import { accountKey, FEES_OWNER_KEY, HOUSE_OWNER_KEY } from '../ledger/accounts.ts';
import { invariant } from '../invariant.ts';
import { MICRO_WALLET_INDEX } from './handlers.ts';
import { microProfit } from './rules.ts';
import { bucketKey } from './state.ts';
import type { MicroState } from './state.ts';

/**
 * Adds the micro area's holds to `expectedLocked` (account key -> locked amount): each running order holds
 * its stake on the user's micro wallet, its fee on the fees account's and its profit on the house reserve's;
 * and checks that the derived indexes agree with the orders.
 */
export function checkMicroInvariants(micro: MicroState, expectedLocked: Map<number, bigint>): void {
  const add = (key: number, amount: bigint): void => {
    if (amount > 0n) expectedLocked.set(key, (expectedLocked.get(key) ?? 0n) + amount);
  };
  const buckets = new Map<string, { up: bigint; down: bigint }>();
  for (const order of micro.orders.values()) {
    const id = order.orderId;
    invariant(id < micro.nextOrderId, `micro order ${id} from the future`);
    invariant(order.stake > 0n && order.fee >= 0n && order.profit >= 0n, `micro order ${id} amounts`);
    invariant(
      order.profit === microProfit({ stake: order.stake, profitRatioBp: order.profitRatioBp }),
      `micro order ${id} profit`,
    );
    invariant(order.fee <= order.stake, `micro order ${id} fee`);
    invariant(order.expiryMs === order.acceptedMs + order.seconds * 1000, `micro order ${id} expiry`);
    invariant(order.open === null || order.open.timeMs > order.acceptedMs, `micro order ${id} opened early`);
    add(accountKey(order.userId, MICRO_WALLET_INDEX, order.currencyId), order.stake);
    add(accountKey(FEES_OWNER_KEY, MICRO_WALLET_INDEX, order.currencyId), order.fee);
    add(accountKey(HOUSE_OWNER_KEY, MICRO_WALLET_INDEX, order.currencyId), order.profit);
    const key = bucketKey(order);
    const bucket = buckets.get(key) ?? { up: 0n, down: 0n };
    if (order.direction === 1) bucket.up += order.profit;
    else bucket.down += order.profit;
    buckets.set(key, bucket);
  }
  for (const [key, bucket] of micro.buckets) {
    const expected = buckets.get(key) ?? { up: 0n, down: 0n };
    invariant(
      expected.up === bucket.up && expected.down === bucket.down,
      `micro exposure bucket ${key} disagrees with its orders`,
    );
    buckets.delete(key);
  }
  for (const [key, bucket] of buckets)
    invariant(bucket.up === 0n && bucket.down === 0n, `micro exposure bucket ${key} missing`);
}
