// Events of the P2P area: everything the projection needs to keep its rows (ads, orders, counters).
import type { P2pEnd, P2pOrderStatus, P2pSide } from './state.ts';

export type P2pConfiguredEvent = {
  type: 'p2pConfigured';
  makerFeeBp: number;
  takerFeeBp: number;
  appealWaitMs: number;
  cancellationsPerDay: number;
};

export type P2pReferenceSetEvent = {
  type: 'p2pReferenceSet';
  currencyId: number;
  fiat: string;
  priceCents: bigint;
  timeMs: number;
};

export type P2pMerchantSetEvent = {
  type: 'p2pMerchantSet';
  userId: number;
  approved: boolean;
  acceptor: boolean;
};

/** An ad posted, edited or changed (status or what is left): the whole ad as it stands. */
export type P2pAdChangedEvent = {
  type: 'p2pAdChanged';
  adId: number;
  userId: number;
  side: P2pSide;
  currencyId: number;
  fiat: string;
  priceCents: bigint;
  floatBp: number | null;
  minFiatCents: bigint;
  maxFiatCents: bigint;
  windowMs: number;
  methodIds: number[];
  terms: string;
  total: bigint;
  remaining: bigint;
  status: 'online' | 'paused' | 'closed';
  acceptor: boolean;
  timeMs: number;
};

export type P2pOrderCreatedEvent = {
  type: 'p2pOrderCreated';
  orderId: number;
  adId: number;
  buyerId: number;
  sellerId: number;
  makerId: number;
  currencyId: number;
  fiat: string;
  priceCents: bigint;
  amount: bigint;
  fiatCents: bigint;
  buyerFee: bigint;
  sellerFee: bigint;
  methodId: number;
  acceptor: boolean;
  createdMs: number;
  deadlineMs: number;
};

/** An order's state changed: paid, appealed, or ended (completed or cancelled, with how). */
export type P2pOrderChangedEvent = {
  type: 'p2pOrderChanged';
  orderId: number;
  buyerId: number;
  sellerId: number;
  status: P2pOrderStatus;
  end: P2pEnd | null;
  /** Who acted: a user id, 0 the engine's clock, or the arbiter's id for a decision. */
  by: number;
  timeMs: number;
};

/** A cancellation counted against a user; `restrictedUntilMs` set when it was the one past the limit. */
export type P2pCancellationCountedEvent = {
  type: 'p2pCancellationCounted';
  userId: number;
  day: number;
  count: number;
  restrictedUntilMs: number | null;
};

export type P2pEvent =
  | P2pConfiguredEvent
  | P2pReferenceSetEvent
  | P2pMerchantSetEvent
  | P2pAdChangedEvent
  | P2pOrderCreatedEvent
  | P2pOrderChangedEvent
  | P2pCancellationCountedEvent;
