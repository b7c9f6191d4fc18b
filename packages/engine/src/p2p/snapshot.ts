// The P2P area's snapshot section, written only when the area holds anything (P2pState.isEmpty), so the
// snapshot text and state hash of an engine that never used P2P stay what they were. Holds are rebuilt from
// the rows: each open order's escrow and each sell ad's.
import { CHANGE_WALLET_INDEX } from '../ledger/accounts.ts';
import { Hold } from '../ledger/holds.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { P2pReasonCode } from './codes.ts';
import { P2P_AD_HOLDS, P2P_ORDER_HOLDS } from './handlers.ts';
import type { P2pAd, P2pOrder, P2pSide, P2pState } from './state.ts';

type AdRow = [
  adId: number,
  userId: number,
  side: P2pSide,
  currencyId: number,
  fiat: string,
  acceptor: 0 | 1,
  priceCents: string,
  floatBp: number | null,
  minFiatCents: string,
  maxFiatCents: string,
  windowMs: number,
  methodIds: number[],
  terms: string,
  total: string,
  remaining: string,
  status: 'online' | 'paused',
  held: string,
];

type OrderRow = [
  orderId: number,
  adId: number,
  buyerId: number,
  sellerId: number,
  makerId: number,
  currencyId: number,
  fiat: string,
  priceCents: string,
  amount: string,
  fiatCents: string,
  buyerFee: string,
  sellerFee: string,
  methodId: number,
  acceptor: 0 | 1,
  createdMs: number,
  deadlineMs: number,
  status: 'unpaid' | 'paid' | 'appealed',
  paidMs: number,
];

export type P2pSnapshotSection = {
  config: [makerFeeBp: number, takerFeeBp: number, appealWaitMs: number, cancellationsPerDay: number];
  nextAdId: number;
  nextOrderId: number;
  merchants: [userId: number, acceptor: 0 | 1][];
  references: [key: string, priceCents: string][];
  ads: AdRow[];
  orders: OrderRow[];
  counterDay: number;
  cancellations: [userId: number, count: number][];
};

export function writeP2pSection(state: P2pState): P2pSnapshotSection | undefined {
  if (state.isEmpty()) return undefined;
  return {
    config: [state.makerFeeBp, state.takerFeeBp, state.appealWaitMs, state.cancellationsPerDay],
    nextAdId: state.nextAdId,
    nextOrderId: state.nextOrderId,
    merchants: [...state.merchants].sort(([a], [b]) => a - b).map(([id, acceptor]) => [id, acceptor ? 1 : 0]),
    references: [...state.references]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => [k, v.toString()]),
    ads: [...state.ads.values()]
      .sort((a, b) => a.adId - b.adId)
      .map((ad) => [
        ad.adId,
        ad.userId,
        ad.side,
        ad.currencyId,
        ad.fiat,
        ad.acceptor ? 1 : 0,
        ad.priceCents.toString(),
        ad.floatBp,
        ad.minFiatCents.toString(),
        ad.maxFiatCents.toString(),
        ad.windowMs,
        [...ad.methodIds],
        ad.terms,
        ad.total.toString(),
        ad.remaining.toString(),
        ad.status,
        (ad.hold?.amount ?? 0n).toString(),
      ]),
    orders: [...state.orders.values()]
      .sort((a, b) => a.orderId - b.orderId)
      .map((o) => [
        o.orderId,
        o.adId,
        o.buyerId,
        o.sellerId,
        o.makerId,
        o.currencyId,
        o.fiat,
        o.priceCents.toString(),
        o.amount.toString(),
        o.fiatCents.toString(),
        o.buyerFee.toString(),
        o.sellerFee.toString(),
        o.methodId,
        o.acceptor ? 1 : 0,
        o.createdMs,
        o.deadlineMs,
        o.status,
        o.paidMs,
      ]),
    counterDay: state.cancellations.size > 0 ? state.counterDay : 0,
    cancellations: [...state.cancellations].sort(([a], [b]) => a - b),
  };
}

export function readP2pSection(
  state: P2pState,
  section: P2pSnapshotSection | undefined,
  ledger: Ledger,
): void {
  if (section === undefined) return;
  [state.makerFeeBp, state.takerFeeBp, state.appealWaitMs, state.cancellationsPerDay] = section.config;
  state.nextAdId = section.nextAdId;
  state.nextOrderId = section.nextOrderId;
  for (const [userId, acceptor] of section.merchants) state.merchants.set(userId, acceptor === 1);
  for (const [key, price] of section.references) state.references.set(key, BigInt(price));
  for (const row of section.ads) {
    const [adId, userId, side, currencyId, fiat, acceptor, priceCents, floatBp, minFiat, maxFiat, windowMs] =
      row;
    const [, , , , , , , , , , , methodIds, terms, total, remaining, status, held] = row;
    let hold: Hold | null = null;
    if (BigInt(held) > 0n) {
      hold = new Hold(
        P2P_AD_HOLDS,
        adId,
        ledger.account(userId, CHANGE_WALLET_INDEX, currencyId),
        BigInt(held),
        P2pReasonCode.p2pAdEscrow,
      );
      ledger.restoreHold(hold);
    }
    const ad: P2pAd = {
      adId,
      userId,
      side,
      currencyId,
      fiat,
      acceptor: acceptor === 1,
      priceCents: BigInt(priceCents),
      floatBp,
      minFiatCents: BigInt(minFiat),
      maxFiatCents: BigInt(maxFiat),
      windowMs,
      methodIds: [...methodIds],
      terms,
      total: BigInt(total),
      remaining: BigInt(remaining),
      status,
      hold,
    };
    state.ads.set(adId, ad);
  }
  for (const row of section.orders) {
    const [orderId, adId, buyerId, sellerId, makerId, currencyId, fiat, priceCents, amount, fiatCents] = row;
    const [
      ,
      ,
      ,
      ,
      ,
      ,
      ,
      ,
      ,
      ,
      buyerFee,
      sellerFee,
      methodId,
      acceptor,
      createdMs,
      deadlineMs,
      status,
      paidMs,
    ] = row;
    const escrow = BigInt(amount) + BigInt(sellerFee);
    const hold = new Hold(
      P2P_ORDER_HOLDS,
      orderId,
      ledger.account(sellerId, CHANGE_WALLET_INDEX, currencyId),
      escrow,
      P2pReasonCode.p2pOrderEscrow,
    );
    ledger.restoreHold(hold);
    const order: P2pOrder = {
      orderId,
      adId,
      buyerId,
      sellerId,
      makerId,
      currencyId,
      fiat,
      priceCents: BigInt(priceCents),
      amount: BigInt(amount),
      fiatCents: BigInt(fiatCents),
      buyerFee: BigInt(buyerFee),
      sellerFee: BigInt(sellerFee),
      methodId,
      acceptor: acceptor === 1,
      createdMs,
      deadlineMs,
      status,
      paidMs,
      hold,
    };
    state.orders.set(orderId, order);
    state.countOpen(makerId === buyerId ? sellerId : buyerId, 1);
  }
  // Unpaid orders back in their window queues, in creation order (deadlines non-decreasing per window).
  const unpaid = [...state.orders.values()]
    .filter((order) => order.status === 'unpaid')
    .sort((a, b) => a.createdMs - b.createdMs || a.orderId - b.orderId);
  for (const order of unpaid) state.queueUnpaid(order);
  state.counterDay = section.counterDay;
  for (const [userId, count] of section.cancellations) state.cancellations.set(userId, count);
}
