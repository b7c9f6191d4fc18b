// Commands of the P2P area (docs/p2p.md). Coin amounts in minor units, prices and fiat amounts in fiat cents.
import type { P2pEnd, P2pSide } from './state.ts';

/** Fees per side (basis points of the coin amount), the appeal wait and the daily cancellation limit. */
export type P2pConfigureCommand = {
  type: 'p2pConfigure';
  makerFeeBp: number;
  takerFeeBp: number;
  appealWaitMs: number;
  cancellationsPerDay: number;
};

/** The reference price (fiat cents per coin) floating ads of (currency, fiat) follow. */
export type P2pSetReferenceCommand = {
  type: 'p2pSetReference';
  currencyId: number;
  fiat: string;
  priceCents: bigint;
};

/** A merchant application decided (approved true) or a merchant revoked (false: its ads are paused). */
export type P2pSetMerchantCommand = {
  type: 'p2pSetMerchant';
  userId: number;
  approved: boolean;
  acceptor: boolean;
};

export type P2pAdTerms = {
  /** Fixed price in fiat cents per coin (0 for a floating ad). */
  priceCents: bigint;
  /** Floating: basis points over (positive) or under the reference; null for a fixed price. */
  floatBp: number | null;
  minFiatCents: bigint;
  maxFiatCents: bigint;
  windowMs: number;
  /** The merchant's payment method ids (kept for the projection; the engine moves no fiat). */
  methodIds: number[];
  terms: string;
};

export type P2pPostAdCommand = P2pAdTerms & {
  type: 'p2pPostAd';
  userId: number;
  side: P2pSide;
  currencyId: number;
  fiat: string;
  /** Coins offered (sell, escrowed now) or wanted (buy). */
  total: bigint;
};

export type P2pEditAdCommand = P2pAdTerms & { type: 'p2pEditAd'; userId: number; adId: number };

/** Pause, resume or close an ad (its owner; `userId` 0 for the back office, which may pause or close). */
export type P2pSetAdStatusCommand = {
  type: 'p2pSetAdStatus';
  userId: number;
  adId: number;
  status: 'online' | 'paused' | 'closed';
};

/** Take an ad: `amount` coins (the server converts a fiat amount first, at the price it was shown). */
export type P2pTakeAdCommand = {
  type: 'p2pTakeAd';
  userId: number;
  adId: number;
  amount: bigint;
  /** The taker's payment method (selling to a buy ad), kept for the projection. */
  methodId: number;
};

export type P2pOrderActionType = 'p2pMarkPaid' | 'p2pRelease' | 'p2pCancel' | 'p2pAppeal' | 'p2pReject';

/** A party's action on an order: mark paid (buyer), release (seller), cancel (buyer), appeal, reject (acceptor). */
export type P2pOrderActionCommand<T extends P2pOrderActionType = P2pOrderActionType> = T extends unknown
  ? { type: T; userId: number; orderId: number }
  : never;

/** An arbiter's recorded decision on an appealed order. */
export type P2pDecideCommand = {
  type: 'p2pDecide';
  orderId: number;
  to: 'buyer' | 'seller';
  arbiterId: number;
};

/** Time passes: the scheduler's heartbeat, so unpaid orders time out without other traffic. */
export type P2pTickCommand = { type: 'p2pTick' };

export type P2pCommand =
  | P2pConfigureCommand
  | P2pSetReferenceCommand
  | P2pSetMerchantCommand
  | P2pPostAdCommand
  | P2pEditAdCommand
  | P2pSetAdStatusCommand
  | P2pTakeAdCommand
  | P2pOrderActionCommand
  | P2pDecideCommand
  | P2pTickCommand;

export type P2pTakeAdReply = { orderId: number; deadlineMs: number };
export type P2pPostAdReply = { adId: number };
export type { P2pEnd };
