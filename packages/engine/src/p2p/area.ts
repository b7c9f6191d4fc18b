// The P2P area (docs/p2p.md): merchants, ads, orders with escrow, the payment window, appeals and
// arbitration. Holds: `p2p` (an order's escrow, ref the order id) and `p2p.ad` (a sell ad's escrow, ref the
// ad id), both rebuilt from the area's snapshot section. Unpaid orders time out in the command-time hook.
import { p2pNextDayStart } from '../calc/p2p.ts';
import { command, defineArea } from '../kernel/area.ts';
import { NOT_FROZEN, frozenBy } from '../kernel/freezes.ts';
import { P2pReasonCode, P2pResultCode } from './codes.ts';
import type {
  P2pConfigureCommand,
  P2pDecideCommand,
  P2pEditAdCommand,
  P2pOrderActionCommand,
  P2pPostAdCommand,
  P2pSetAdStatusCommand,
  P2pSetMerchantCommand,
  P2pSetReferenceCommand,
  P2pTakeAdCommand,
  P2pTickCommand,
} from './commands.ts';
import {
  P2P_AD_HOLDS,
  adPriceCents,
  cancellationsToday,
  isRestricted,
  p2pConfigure,
  p2pDecide,
  p2pEditAd,
  p2pOnTime,
  p2pOrderAction,
  p2pPostAd,
  p2pSetAdStatus,
  p2pSetMerchant,
  p2pSetReference,
  p2pTakeAd,
} from './handlers.ts';
import { checkP2pInvariants } from './invariants.ts';
import { readP2pSection, writeP2pSection } from './snapshot.ts';
import type { P2pSnapshotSection } from './snapshot.ts';
import { P2pState } from './state.ts';
import type { P2pAd, P2pOrder } from './state.ts';
import { ResultCode } from '../result-codes.ts';

export type P2pAdView = Omit<P2pAd, 'hold' | 'methodIds'> & {
  methodIds: number[];
  /** The price now (fixed, or floating on the reference); 0n when a floating ad has no reference. */
  currentPriceCents: bigint;
  held: bigint;
};
export type P2pOrderView = Omit<P2pOrder, 'hold'> & { escrow: bigint };

export type P2pQueries = {
  config(): {
    makerFeeBp: number;
    takerFeeBp: number;
    appealWaitMs: number;
    cancellationsPerDay: number;
    references: { currencyId: number; fiat: string; priceCents: bigint }[];
  };
  /** An approved merchant's acceptor flag; undefined when the user is no merchant. */
  merchant(userId: number): { acceptor: boolean } | undefined;
  ad(adId: number): P2pAdView | undefined;
  /** Every ad online or paused, by id (the ad book reads these; closed ads are in the projection). */
  ads(): P2pAdView[];
  order(orderId: number): P2pOrderView | undefined;
  /** A user's cancellations on the Asia/Shanghai day of `timeMs`, and until when new orders are refused. */
  counters(userId: number, timeMs: number): { cancellations: number; restrictedUntilMs: number | null };
  /** The earliest payment-window end of an unpaid order (the scheduler's cue for a tick); null with none. */
  nextDeadlineMs(): number | null;
  /** Open orders and what their escrow holds, per currency (for audits and tests). */
  escrow(): { orders: number; held: Map<number, bigint> };
};

function adView(state: P2pState, ad: P2pAd): P2pAdView {
  const { hold, methodIds, ...rest } = ad;
  return {
    ...rest,
    methodIds: [...methodIds],
    currentPriceCents: adPriceCents(state, ad),
    held: hold?.amount ?? 0n,
  };
}

export const p2pArea = defineArea({
  name: 'p2p',
  commands: {
    p2pConfigure: command<P2pState, P2pConfigureCommand>(p2pConfigure),
    p2pSetReference: command<P2pState, P2pSetReferenceCommand>(p2pSetReference),
    p2pSetMerchant: command<P2pState, P2pSetMerchantCommand>(p2pSetMerchant),
    p2pPostAd: command<P2pState, P2pPostAdCommand>(p2pPostAd, (c) => c.userId),
    p2pEditAd: command<P2pState, P2pEditAdCommand>(p2pEditAd, (c) => c.userId),
    p2pSetAdStatus: command<P2pState, P2pSetAdStatusCommand>(p2pSetAdStatus, (c) => c.userId || undefined),
    p2pTakeAd: command<P2pState, P2pTakeAdCommand>(p2pTakeAd, (c) => c.userId),
    p2pMarkPaid: command<P2pState, P2pOrderActionCommand>(p2pOrderAction, (c) => c.userId),
    p2pRelease: command<P2pState, P2pOrderActionCommand>(p2pOrderAction, (c) => c.userId),
    p2pCancel: command<P2pState, P2pOrderActionCommand>(p2pOrderAction, (c) => c.userId),
    p2pAppeal: command<P2pState, P2pOrderActionCommand>(p2pOrderAction, (c) => c.userId),
    p2pReject: command<P2pState, P2pOrderActionCommand>(p2pOrderAction, (c) => c.userId),
    p2pDecide: command<P2pState, P2pDecideCommand>(p2pDecide),
    p2pTick: command<P2pState, P2pTickCommand>(() => ResultCode.ok),
  },
  freezes: {
    p2pConfigure: NOT_FROZEN,
    p2pSetReference: NOT_FROZEN,
    p2pSetMerchant: NOT_FROZEN,
    // A sell ad escrows coins for another user: a withdrawal by another door.
    p2pPostAd: frozenBy<P2pState, P2pPostAdCommand>(
      (_state, c) => (c.side === 'sell' ? ['trading', 'withdrawals'] : ['trading']),
      (c) => c.userId,
    ),
    p2pEditAd: frozenBy<P2pState, P2pEditAdCommand>(['trading'], (c) => c.userId),
    // Putting an ad back online trades again; pausing or closing it does not.
    p2pSetAdStatus: frozenBy<P2pState, P2pSetAdStatusCommand>(
      (state, c) =>
        c.status !== 'online'
          ? []
          : state.ads.get(c.adId)?.side === 'sell'
            ? ['trading', 'withdrawals']
            : ['trading'],
      (c) => c.userId,
    ),
    // Taking a buy ad sells coins.
    p2pTakeAd: frozenBy<P2pState, P2pTakeAdCommand>(
      (state, c) => (state.ads.get(c.adId)?.side === 'buy' ? ['trading', 'withdrawals'] : ['trading']),
      (c) => c.userId,
    ),
    // The buyer confirming payment, cancelling, appealing, an acceptor's rejection and an arbiter's
    // decision close an order; releasing coins as the seller hands them to another user.
    p2pMarkPaid: NOT_FROZEN,
    p2pRelease: frozenBy<P2pState, P2pOrderActionCommand>(['withdrawals'], (c) => c.userId),
    p2pCancel: NOT_FROZEN,
    p2pAppeal: NOT_FROZEN,
    p2pReject: NOT_FROZEN,
    p2pDecide: NOT_FROZEN,
    p2pTick: NOT_FROZEN,
  },
  createState: (setup) => new P2pState(setup.ledger),
  queries: (state): P2pQueries => ({
    config: () => ({
      makerFeeBp: state.makerFeeBp,
      takerFeeBp: state.takerFeeBp,
      appealWaitMs: state.appealWaitMs,
      cancellationsPerDay: state.cancellationsPerDay,
      references: [...state.references].map(([key, priceCents]) => {
        const [currencyId, fiat] = key.split(':') as [string, string];
        return { currencyId: Number(currencyId), fiat, priceCents };
      }),
    }),
    merchant: (userId) => {
      const acceptor = state.merchants.get(userId);
      return acceptor === undefined ? undefined : { acceptor };
    },
    ad: (adId) => {
      const ad = state.ads.get(adId);
      return ad === undefined ? undefined : adView(state, ad);
    },
    ads: () => [...state.ads.values()].sort((a, b) => a.adId - b.adId).map((ad) => adView(state, ad)),
    order: (orderId) => {
      const order = state.orders.get(orderId);
      if (order === undefined) return undefined;
      const { hold, ...rest } = order;
      return { ...rest, escrow: hold.amount };
    },
    counters: (userId, timeMs) => ({
      cancellations: cancellationsToday(state, userId, timeMs),
      restrictedUntilMs: isRestricted(state, userId, timeMs) ? p2pNextDayStart(timeMs) : null,
    }),
    nextDeadlineMs: () => {
      let next: number | null = null;
      for (const [window, queue] of state.windowQueues) {
        for (let index = state.windowHeads.get(window) ?? 0; index < queue.length; index += 1) {
          const order = queue[index] as P2pOrder;
          if (order.status !== 'unpaid' || state.orders.get(order.orderId) !== order) continue;
          if (next === null || order.deadlineMs < next) next = order.deadlineMs;
          break;
        }
      }
      return next;
    },
    escrow: () => {
      const held = new Map<number, bigint>();
      for (const order of state.orders.values())
        held.set(order.currencyId, (held.get(order.currencyId) ?? 0n) + order.hold.amount);
      return { orders: state.orders.size, held };
    },
  }),
  writeSnapshot: (state) => ({ p2p: writeP2pSection(state) }),
  readSnapshot: (state, document) => {
    readP2pSection(state, document.p2p as P2pSnapshotSection | undefined, state.ledger);
  },
  rebuildsHolds: true,
  holdOwners: [P2P_AD_HOLDS],
  checkInvariants: (state, ledger) => checkP2pInvariants(state, ledger),
  bigintFields: [
    'priceCents',
    'minFiatCents',
    'maxFiatCents',
    'total',
    'remaining',
    'amount',
    'fiatCents',
    'buyerFee',
    'sellerFee',
    'escrow',
    'held',
    'currentPriceCents',
  ],
  resultCodes: P2pResultCode,
  reasonCodes: P2pReasonCode,
  onCommandTime: (ctx, state) => {
    if (state.orders.size > 0 || state.cancellations.size > 0) p2pOnTime(ctx, state);
  },
  stats: (state) => ({ p2pOpenOrders: state.orders.size, p2pOpenAds: state.ads.size }),
});
