// The P2P area's rules, walked over its whole state after every command in tests: each open order owns
// exactly its escrow hold (amount plus the seller's fee, on the seller's change wallet); each sell ad's hold
// covers what it has left; no other hold of the area exists; every unpaid order is in its window queue.
import { CHANGE_WALLET_INDEX } from '../ledger/accounts.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { invariant } from '../invariant.ts';
import { P2P_AD_HOLDS, P2P_ORDER_HOLDS } from './handlers.ts';
import type { P2pState } from './state.ts';

export function checkP2pInvariants(state: P2pState, ledger: Ledger): void {
  const orderHolds = ledger.holdsOf(P2P_ORDER_HOLDS);
  const adHolds = ledger.holdsOf(P2P_AD_HOLDS);
  invariant(
    orderHolds.size === state.orders.size,
    `p2p: ${orderHolds.size} order holds for ${state.orders.size} orders`,
  );
  for (const order of state.orders.values()) {
    const hold = orderHolds.get(order.orderId);
    invariant(hold === order.hold && hold.open, `p2p order ${order.orderId} without its hold`);
    invariant(
      hold.amount === order.amount + order.sellerFee,
      `p2p order ${order.orderId} holds ${hold.amount}`,
    );
    invariant(
      hold.account === ledger.findAccount(order.sellerId, CHANGE_WALLET_INDEX, order.currencyId),
      `p2p order ${order.orderId} escrow on the wrong account`,
    );
    invariant(order.buyerFee <= order.amount, `p2p order ${order.orderId} fee above amount`);
    if (order.status === 'unpaid') {
      const window = order.deadlineMs - order.createdMs;
      const queue = state.windowQueues.get(window) ?? [];
      const head = state.windowHeads.get(window) ?? 0;
      invariant(queue.indexOf(order, head) >= 0, `p2p unpaid order ${order.orderId} not queued`);
    }
  }
  let withHolds = 0;
  for (const ad of state.ads.values()) {
    invariant(ad.remaining >= 0n && ad.remaining <= ad.total, `p2p ad ${ad.adId} remaining ${ad.remaining}`);
    if (ad.hold === null) {
      invariant(ad.side === 'buy' || ad.remaining === 0n, `p2p sell ad ${ad.adId} without escrow`);
      continue;
    }
    withHolds += 1;
    invariant(ad.side === 'sell' && adHolds.get(ad.adId) === ad.hold, `p2p ad ${ad.adId} hold`);
    invariant(ad.hold.amount >= ad.remaining, `p2p ad ${ad.adId} holds ${ad.hold.amount} < ${ad.remaining}`);
  }
  invariant(adHolds.size === withHolds, `p2p: ${adHolds.size} ad holds for ${withHolds} ads`);
}
