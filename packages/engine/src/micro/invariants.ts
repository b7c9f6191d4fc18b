import { FEES_OWNER_KEY, HOUSE_OWNER_KEY } from '../ledger/accounts.ts';
import type { Hold } from '../ledger/holds.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { invariant } from '../invariant.ts';
import { MICRO_FEE_HOLDS, MICRO_RESERVE_HOLDS, MICRO_STAKE_HOLDS, MICRO_WALLET_INDEX } from './handlers.ts';
import { microProfit } from './rules.ts';
import { bucketKey } from './state.ts';
import type { MicroOrder, MicroState } from './state.ts';

/**
 * The micro area's rules: each running order's amounts follow its rule, and it owns exactly its holds (its
 * stake on the user's micro wallet, its fee on the fees account's, its possible profit on the house
 * reserve's; each an open hold of exactly that amount, and no other micro hold exists); the derived indexes
 * (exposure buckets) agree with the orders.
 */
export function checkMicroInvariants(micro: MicroState, ledger: Ledger): void {
  const expectedHolds = { stake: 0, fee: 0, reserve: 0 };
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
    checkHold(ledger, order, order.stakeHold, MICRO_STAKE_HOLDS, order.userId, order.stake);
    checkHold(ledger, order, order.feeHold, MICRO_FEE_HOLDS, FEES_OWNER_KEY, order.fee);
    checkHold(ledger, order, order.reserveHold, MICRO_RESERVE_HOLDS, HOUSE_OWNER_KEY, order.profit);
    expectedHolds.stake += 1;
    if (order.fee > 0n) expectedHolds.fee += 1;
    if (order.profit > 0n) expectedHolds.reserve += 1;
    const key = bucketKey(order);
    const bucket = buckets.get(key) ?? { up: 0n, down: 0n };
    if (order.direction === 1) bucket.up += order.profit;
    else bucket.down += order.profit;
    buckets.set(key, bucket);
  }
  invariant(
    ledger.holds.countOf(MICRO_STAKE_HOLDS) === expectedHolds.stake &&
      ledger.holds.countOf(MICRO_FEE_HOLDS) === expectedHolds.fee &&
      ledger.holds.countOf(MICRO_RESERVE_HOLDS) === expectedHolds.reserve,
    'micro holds and running orders disagree',
  );
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

function checkHold(
  ledger: Ledger,
  order: MicroOrder,
  hold: Hold | null,
  owner: string,
  ownerKey: number,
  amount: bigint,
): void {
  const id = order.orderId;
  if (amount === 0n) {
    invariant(hold === null, `micro order ${id} keeps a ${owner} hold of nothing`);
    return;
  }
  invariant(hold !== null && ledger.holds.has(hold), `micro order ${id} has no open ${owner} hold`);
  const account = hold.account;
  invariant(
    hold.area === owner &&
      hold.ref === id &&
      hold.amount === amount &&
      account.ownerKey === ownerKey &&
      account.walletIndex === MICRO_WALLET_INDEX &&
      account.currencyId === order.currencyId,
    `micro order ${id} does not hold exactly its ${owner} amount`,
  );
}
