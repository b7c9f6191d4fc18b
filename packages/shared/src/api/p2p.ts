// P2P fiat trade (docs/p2p.md): input schemas and reply shapes of /api/p2p/*, /api/acceptor/my_deal and
// /api/backoffice/p2p/*, and the pushes `seller` and `p2p_order`. Coin amounts are decimal text in the
// asset's scale; fiat amounts and prices decimal text with two decimals (fiat cents); times milliseconds
// since the epoch. Escrowed coins sit in the seller's change wallet, locked, until one of three exits:
// the seller releases, a cancellation before "paid" (buyer or payment-window timeout), an arbiter's decision.
import { z } from 'zod';
import { decimalText, id, integer, note, oneOf, optional, page, text } from '../schema/fields.ts';

export const P2P_PAGE_SIZE = 20;
/** The payment window of an ad unless it says otherwise (the specs: a fiat order cancels after 15 minutes). */
export const P2P_DEFAULT_WINDOW_MINUTES = 15;
export const P2P_WINDOW_MINUTES = [10, 15, 20, 30, 45, 60] as const;
/** A user's fourth cancellation of a day (00:00 Asia/Shanghai) restricts new orders until the next reset. */
export const P2P_CANCELLATIONS_PER_DAY = 3;
/** The fiat currencies an ad may quote (ISO 4217 codes; two decimals each). */
export const P2P_FIATS = ['CNY', 'USD', 'HKD', 'KRW', 'JPY', 'EUR'] as const;
export type P2pFiat = (typeof P2P_FIATS)[number];
export const P2P_METHODS = ['bank', 'ali_pay', 'we_chat'] as const;
export type P2pMethod = (typeof P2P_METHODS)[number];

/** Order states. `paid`: the buyer said the fiat was sent; only a release or an arbiter ends it then. */
export const P2P_ORDER_STATUSES = ['unpaid', 'paid', 'appealed', 'completed', 'cancelled'] as const;
export type P2pOrderStatus = (typeof P2P_ORDER_STATUSES)[number];
/** How an order ended: released by the seller, cancelled by the buyer, timed out, or decided by an arbiter. */
export type P2pOrderEnd =
  'released' | 'buyerCancelled' | 'timedOut' | 'acceptorRejected' | 'arbiterToBuyer' | 'arbiterToSeller';

const fiat = () => oneOf(P2P_FIATS);
const method = () => oneOf(P2P_METHODS);
const side = () => oneOf(['buy', 'sell'] as const);
/** The account's second factor: the authenticator's code, or an e-mail code from POST /p2p/security_code. */
const secondFactorCode = () => optional(text({ max: 6, min: 6 }));

// ------------------------------------------------------------------------------------------ merchants

/** POST /p2p/merchant/apply: apply to become a merchant (thresholds in MerchantStatus.requirements). */
export const p2pMerchantApplyInput = z.object({
  /** The name shown on the merchant's ads. */
  nickname: text({ min: 2, max: 24 }),
  /** What the applicant tells the reviewer (trading experience, volumes). */
  note: optional(note({ max: 500 })),
});

export interface P2pRequirement {
  key: 'realName' | 'accountAge' | 'completedTrades';
  /** What is needed (days for the account's age, orders for the trades; 1 for real name). */
  needed: number;
  /** What the user has. */
  have: number;
  met: boolean;
}

/** GET /p2p/merchant/status. */
export interface P2pMerchantStatus {
  /** 1 when an approved merchant (the stored is_seller). */
  is_seller: 0 | 1;
  application: {
    id: number;
    nickname: string;
    status: 'pending' | 'approved' | 'rejected';
    reason: string;
    created_time: number;
    reviewed_time: number | null;
  } | null;
  requirements: P2pRequirement[];
  can_apply: boolean;
}

// ------------------------------------------------------------------------------------ payment methods

/** POST /p2p/methods/add: the holder's name must equal the account's approved real name. */
export const p2pMethodAddInput = z.object({
  method: method(),
  holder_name: text({ max: 64 }),
  /** Bank card number, Alipay account or WeChat id. */
  account: text({ min: 3, max: 64 }),
  /** Bank name and branch (bank only). */
  bank_name: optional(text({ max: 64 })),
  /** An optional QR code image (upload address from POST /p2p/upload), for Alipay and WeChat. */
  qr_image: optional(text({ max: 200 })),
});
export const p2pMethodEditInput = p2pMethodAddInput.extend({ id: id() });
export const p2pMethodIdInput = z.object({ id: id() });

export interface P2pPaymentMethod {
  id: number;
  method: P2pMethod;
  holder_name: string;
  account: string;
  bank_name: string;
  qr_image: string | null;
  /** False once deleted: still shown on the orders that used it. */
  active: boolean;
}

// ----------------------------------------------------------------------------------------------- ads

/** Price: fixed fiat per coin, or floating: the reference price (docs/p2p.md) plus or minus a percent. */
const adFields = {
  side: side(),
  currency_id: id(),
  fiat: fiat(),
  price_type: oneOf(['fixed', 'floating'] as const),
  /** Fixed: fiat per coin, two decimals. */
  price: optional(decimalText({ positive: true })),
  /** Floating: percent over (positive) or under (negative) the reference, two decimals, -20..20. */
  float_percent: optional(decimalText({ allowNegative: true })),
  /** Coins offered or wanted in all; a sell ad escrows it when posted. */
  total: decimalText({ positive: true }),
  /** Per order, in fiat. */
  min_fiat: decimalText({ positive: true }),
  max_fiat: decimalText({ positive: true }),
  /** The merchant's payment method ids (a sell ad: where buyers pay; a buy ad: informative, the taker's are used). */
  method_ids: z.array(id()).min(1).max(3),
  window_minutes: optional(oneOf(P2P_WINDOW_MINUTES)),
  terms: optional(note({ max: 1000 })),
};
/** POST /p2p/ads/create (merchants only). */
export const p2pAdCreateInput = z.object(adFields);
/** POST /p2p/ads/edit: price, limits, methods, window and terms (side, asset, fiat and total stay). */
export const p2pAdEditInput = z.object({
  id: id(),
  price_type: adFields.price_type,
  price: adFields.price,
  float_percent: adFields.float_percent,
  min_fiat: adFields.min_fiat,
  max_fiat: adFields.max_fiat,
  method_ids: adFields.method_ids,
  window_minutes: adFields.window_minutes,
  terms: adFields.terms,
});
/** POST /p2p/ads/pause, /p2p/ads/resume, /p2p/ads/close (close returns a sell ad's unsold escrow). */
export const p2pAdIdInput = z.object({ id: id() });

/** GET /p2p/ads: the ad book. `side` is the taker's: buy lists sell ads (cheapest first), sell lists buy ads. */
export const p2pAdListInput = z.object({
  side: side(),
  currency_id: id(),
  fiat: fiat(),
  method: optional(method()),
  /** Only ads whose per-order limits admit this fiat amount. */
  amount: optional(decimalText({ positive: true })),
  page: page(),
});
/** GET /p2p/my_ads: the merchant's own ads. */
export const p2pMyAdsInput = z.object({
  status: optional(oneOf(['online', 'paused', 'closed'] as const)),
  page: page(),
});

export interface P2pMerchantStats {
  user_id: number;
  nickname: string;
  /** Completed orders, all time. */
  completed: number;
  /**
   * Completed / (completed + ended by the merchant's own failure) over the last 30 days, percent with two
   * decimals; null with none. A counterparty's cancellation or lapse does not count (docs/p2p.md).
   */
  completion_rate_30d: string | null;
  /** Seconds from "paid" to release, averaged over the last 30 days' releases; null with none. */
  avg_release_seconds: number | null;
  /** Orders ended in the last 30 days, completed or cancelled by anyone. */
  orders_30d: number;
  /** Ratings received from counterparties after completed orders, all time. */
  feedback_count: number;
  /** Positive ratings / ratings received, percent with two decimals; null with none. */
  positive_rate: string | null;
  /** A demo account (DEMO=on, the seeded merchant of a fresh exchange): screens tag its ads "demo". */
  demo: boolean;
}

export interface P2pAd {
  id: number;
  side: 'buy' | 'sell';
  currency_id: number;
  currency_name: string;
  fiat: P2pFiat;
  price_type: 'fixed' | 'floating';
  /** The price in force now (fixed, or the reference plus the percent). */
  price: string;
  float_percent: string | null;
  total: string;
  /** What is left to trade (a sell ad: what its escrow still holds beyond its open orders). */
  available: string;
  min_fiat: string;
  /** The per-order maximum, capped by what is left at the current price. */
  max_fiat: string;
  methods: P2pMethod[];
  window_minutes: number;
  terms: string;
  status: 'online' | 'paused' | 'closed';
  merchant: P2pMerchantStats;
  acceptor: boolean;
  created_time: number;
}

// --------------------------------------------------------------------------------------------- orders

/** POST /p2p/orders/create: take an ad for a fiat amount or a coin amount (exactly one of them). */
export const p2pOrderCreateInput = z.object({
  ad_id: id(),
  fiat_amount: optional(decimalText({ positive: true })),
  amount: optional(decimalText({ positive: true })),
  /** Selling to a buy ad: the taker's own payment method the buyer pays to. */
  method_id: optional(id()),
});
/** GET /p2p/orders: the user's orders, as buyer or seller. */
export const p2pOrderListInput = z.object({
  status: optional(oneOf(['open', 'completed', 'cancelled', 'appealed'] as const)),
  page: page(),
});
export const p2pOrderIdInput = z.object({ id: id() });
/** POST /p2p/orders/paid: the buyer marks the fiat sent (optionally naming the method used). */
export const p2pOrderPaidInput = z.object({ id: id(), method_id: optional(id()) });
/** POST /p2p/orders/release: the seller releases the coins, with the second factor. */
export const p2pOrderReleaseInput = z.object({
  id: id(),
  totp_code: secondFactorCode(),
  code: secondFactorCode(),
});
/** POST /p2p/security_code: an e-mail code for a release (accounts without an authenticator). */
export const p2pSecurityCodeInput = z.object({ purpose: oneOf(['release'] as const) });
/** POST /p2p/orders/cancel: the buyer, before "paid". */
export const p2pOrderCancelInput = z.object({ id: id(), reason: optional(note({ max: 200 })) });
/**
 * The appeal reasons each side may give: the buyer paid and the coins were not released; the seller has not
 * received the payment. The server refuses a reason of the other side (docs/p2p.md, Appeals).
 */
export const P2P_APPEAL_REASONS = {
  buy: ['not_released', 'wrong_amount', 'other'],
  sell: ['not_received', 'wrong_amount', 'other'],
} as const;
export type P2pAppealReason = (typeof P2P_APPEAL_REASONS)['buy' | 'sell'][number];

/** POST /p2p/orders/appeal: either party, once the disclosed wait after "paid" has passed. */
export const p2pAppealInput = z.object({
  id: id(),
  reason: oneOf(['not_released', 'not_received', 'wrong_amount', 'other'] as const),
  description: note({ min: 10, max: 1000 }),
  /** Upload addresses from POST /p2p/upload. */
  evidence: z
    .array(text({ max: 200 }))
    .max(6)
    .optional(),
});
/** GET /p2p/orders/messages: the order's chat after `after` (a message id; 0 for all). */
export const p2pMessagesInput = z.object({ id: id(), after: optional(integer({ min: 0 })) });
/** POST /p2p/orders/message: text, an image (upload address), or both. */
export const p2pMessageSendInput = z.object({
  id: id(),
  text: optional(note({ max: 1000 })),
  image: optional(text({ max: 200 })),
});
/** POST /p2p/orders/feedback: a party of a completed order rates the other, once. */
export const p2pFeedbackInput = z.object({
  id: id(),
  rating: oneOf(['positive', 'negative'] as const),
  comment: optional(note({ max: 200 })),
});

/** One party's rating of the other after a completed order. */
export interface P2pFeedback {
  rating: 'positive' | 'negative';
  comment: string;
  created_time: number;
}

/** GET /p2p/orders/feedback?id=: what the viewer gave and received on one of its orders. */
export interface P2pOrderFeedback {
  /** Only a completed order may be rated. */
  can_rate: boolean;
  mine: P2pFeedback | null;
  theirs: P2pFeedback | null;
}

/** GET /p2p/upload/image?id=: an order image, to the two parties and arbiters only. */
export const p2pImageInput = z.object({ id: text({ max: 200 }) });

export interface P2pPartyView {
  user_id: number;
  nickname: string;
}

export interface P2pOrder {
  id: number;
  ad_id: number;
  /** The viewer's side. */
  my_side: 'buy' | 'sell';
  buyer: P2pPartyView;
  seller: P2pPartyView;
  currency_id: number;
  currency_name: string;
  fiat: P2pFiat;
  price: string;
  amount: string;
  fiat_amount: string;
  /** The viewer's fee, in the coin (a buyer's from what it receives, a seller's on top of the escrow). */
  fee: string;
  status: P2pOrderStatus;
  end: P2pOrderEnd | null;
  created_time: number;
  /** The end of the payment window (unpaid orders cancel then); the countdown's target. */
  deadline_time: number;
  paid_time: number | null;
  /** From when an appeal may be filed (paid_time plus the disclosed wait); null before "paid". */
  appeal_after_time: number | null;
  ended_time: number | null;
  acceptor: boolean;
  /**
   * The seller's payment details the buyer pays to (the seller's chosen methods); shown to the two parties
   * and arbiters only, and only while the order is open or in appeal.
   */
  payment_methods: P2pPaymentMethod[];
  terms: string;
  /** Chat messages not read by the viewer. */
  unread: number;
}

export interface P2pMessage {
  id: number;
  order_id: number;
  /** The sender: a party's user id; 0 for the system (status changes), -1 for an arbiter. */
  from: number;
  text: string;
  /** A private image address (GET /p2p/upload/image), or null. */
  image: string | null;
  created_time: number;
}

/** GET /p2p/counters: the cancellation limit as the user stands today. */
export interface P2pCounters {
  cancellations_today: number;
  limit: number;
  /** Until when new orders are refused (the next 00:00 Asia/Shanghai); null when not restricted. */
  restricted_until: number | null;
}

/** GET /p2p/config: what the screens need to offer. */
export interface P2pConfig {
  assets: { currency_id: number; name: string; scale: number }[];
  fiats: P2pFiat[];
  methods: P2pMethod[];
  window_minutes: readonly number[];
  default_window_minutes: number;
  /** How long after "paid" an appeal may be filed, in minutes (disclosed on the order room). */
  appeal_wait_minutes: number;
  /** Per side, in basis points of the coin amount (0: no fee). */
  maker_fee_bp: number;
  taker_fee_bp: number;
  cancellations_per_day: number;
  /**
   * Reference prices (fiat per coin) floating ads follow; price null when not recorded yet. `time` is when the
   * back office set it (ms, the journaled command's time): a floating price is only as fresh as its reference.
   */
  references: { currency_id: number; fiat: P2pFiat; price: string | null; time: number | null }[];
}

// ------------------------------------------------------------------------------------ acceptor deals

/** GET /api/acceptor/my_deal (spec 02): the user's acceptor deals; type buy (deposits) or sell (withdrawals). */
export const acceptorMyDealInput = z.object({
  address: optional(text({ max: 128 })),
  type: optional(oneOf(['buy', 'sell'] as const)),
  page: page(),
});
/** POST /p2p/acceptor/deal: buy USDT from an acceptor (deposit) or sell USDT to one (withdrawal). */
export const acceptorDealCreateInput = z.object({
  type: oneOf(['buy', 'sell'] as const),
  /** An acceptor's ad (GET /p2p/ads with acceptor ads marked). */
  ad_id: id(),
  /** Fiat money. */
  money: decimalText({ positive: true }),
  /** Selling: the user's payment method the acceptor pays to. */
  method_id: optional(id()),
});
/** POST /p2p/acceptor/confirm, /p2p/acceptor/reject: the acceptor's answer (an acceptor merchant only). */
export const acceptorAnswerInput = z.object({
  id: id(),
  totp_code: secondFactorCode(),
  code: secondFactorCode(),
});

/** One acceptor deal, in spec 02's shape (plus id, type and the order it is). */
export interface AcceptorDeal {
  id: number;
  type: 'buy' | 'sell';
  /** Fiat money. */
  money: string;
  /** The coins (USDT) the deal moves. */
  number: string;
  /** The account the user pays from or is paid to. */
  deal_account: string;
  acceptor_name: string;
  /** The acceptor's account the user pays to (buy) or is paid from (sell). */
  hes_account: string;
  way: 'bank' | 'ali_pay' | 'we_chat';
  /** 0 waiting for the acceptor, 1 confirmed, 2 rejected (or timed out). */
  is_sure: 0 | 1 | 2;
  create_time: string;
  /** When the acceptor answered; shown only when is_sure is above 0. */
  update_time: string;
  order_id: number;
}

// -------------------------------------------------------------------------------------------- pushes

/** To the user's room when a merchant application is decided: the client stores is_seller. */
export interface SellerPayload {
  type: 'seller';
  is_seller: 0 | 1;
}

/** To both parties' rooms on every change of an order (created, paid, released, cancelled, appeal, message). */
export interface P2pOrderPayload {
  type: 'p2p_order';
  order_id: number;
  status: P2pOrderStatus;
  end: P2pOrderEnd | null;
  /** What happened: a status change or a new chat message (fetch the order or the messages). */
  change: 'created' | 'paid' | 'released' | 'cancelled' | 'timedOut' | 'appealed' | 'decided' | 'message';
  time: number;
}

// --------------------------------------------------------------------------- back office (/api/backoffice/p2p)

export const P2P_ADMIN_PAGE_SIZE = 50;

export const p2pAdminApplicationsInput = z.object({
  status: optional(oneOf(['pending', 'approved', 'rejected'] as const)),
  page: page(),
});
/** POST /backoffice/p2p/applications/review: approve (is_seller 1, `seller` push) or reject with a reason. */
export const p2pAdminReviewInput = z.object({
  id: id(),
  decision: oneOf(['approve', 'reject'] as const),
  reason: optional(note({ max: 200 })),
  /** Mark the merchant as an acceptor (fiat deposits and withdrawals). */
  acceptor: optional(oneOf([0, 1] as const)),
});
/** POST /backoffice/p2p/merchants/revoke: is_seller 0; the merchant's ads are paused. */
export const p2pAdminRevokeInput = z.object({ user_id: id(), reason: note({ max: 200 }) });
export const p2pAdminAdsInput = z.object({
  status: optional(oneOf(['online', 'paused', 'closed'] as const)),
  user_id: optional(id()),
  page: page(),
});
/** POST /backoffice/p2p/ads/pause: takes an ad off the book (open orders continue). */
export const p2pAdminAdPauseInput = z.object({ id: id(), reason: note({ max: 200 }) });
export const p2pAdminOrdersInput = z.object({
  status: optional(oneOf(P2P_ORDER_STATUSES)),
  user_id: optional(id()),
  page: page(),
});
export const p2pAdminOrderInput = z.object({ id: id() });
/** POST /backoffice/p2p/orders/decide: the arbiter's recorded decision on an appealed order. */
export const p2pAdminDecideInput = z.object({
  id: id(),
  to: oneOf(['buyer', 'seller'] as const),
  reason: note({ min: 10, max: 1000 }),
  totp_code: text({ min: 6, max: 6 }),
});
/** POST /backoffice/p2p/config: fees per side, the appeal wait and the daily cancellation limit. */
export const p2pAdminConfigInput = z.object({
  /** Basis points of the coin amount, at most 10 %. */
  maker_fee_bp: integer({ min: 0, max: 1_000 }),
  taker_fee_bp: integer({ min: 0, max: 1_000 }),
  appeal_wait_minutes: integer({ min: 0, max: 1_440 }),
  cancellations_per_day: integer({ min: 1, max: 100 }),
});
/** POST /backoffice/p2p/reference: record a reference price floating ads follow. */
export const p2pAdminReferenceInput = z.object({
  currency_id: id(),
  fiat: fiat(),
  price: decimalText({ positive: true }),
});

export interface P2pAdminApplication {
  id: number;
  user_id: number;
  account: string;
  nickname: string;
  note: string;
  status: 'pending' | 'approved' | 'rejected';
  reason: string;
  requirements: P2pRequirement[];
  created_time: number;
  reviewed_time: number | null;
  reviewed_by: string | null;
}

/** One line of an appealed order's evidence log: chat, uploads and status changes, in time order. */
export interface P2pEvidenceEntry {
  time: number;
  kind: 'status' | 'message' | 'image' | 'appeal' | 'decision';
  /** Who: a user id, 0 the system, -1 an arbiter. */
  from: number;
  text: string;
  image: string | null;
}

export interface P2pAdminOrder extends Omit<P2pOrder, 'my_side' | 'unread' | 'fee'> {
  buyer_fee: string;
  seller_fee: string;
  appeal: {
    by: number;
    reason: string;
    description: string;
    evidence: string[];
    created_time: number;
  } | null;
  decision: { to: 'buyer' | 'seller'; reason: string; by: string; time: number } | null;
  evidence_log: P2pEvidenceEntry[];
}
