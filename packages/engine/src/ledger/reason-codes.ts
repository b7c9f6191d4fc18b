// Why a balance changed. Every balance event carries one of these; the account log shows them. Codes are
// grouped by area (100s funding, 200s withdrawals, 300s spot) and never renumbered; later areas (lever,
// seconds contracts, products) take the next hundreds.

import { MicroReasonCode } from '../micro/codes.ts';

export const ReasonCode = {
  /** Outside world -> a user's change wallet. */
  deposit: 100,
  /** Outside world -> a system account (genesis funding of the market maker, the insurance fund...). */
  systemFund: 101,
  /** Between two wallets of one owner, same currency. */
  walletTransfer: 102,
  /** A flash exchange: the user pays the house in one currency... */
  flashPayment: 110,
  /** ...the house pays the user in the other... */
  flashPayout: 111,
  /** ...and the user pays the exchange fee from what arrived to the fees account. */
  flashFee: 112,

  /** Pending: available -> locked while an administrator decides. */
  withdrawalHold: 200,
  /** Void: the rejected withdrawal's hold returns to available. */
  withdrawalRelease: 201,
  /** Post: the withdrawn amount (less the fee) leaves to the outside world. */
  withdrawalPayout: 202,
  /** Post: the withdrawal fee goes to the fees account. */
  withdrawalFee: 203,

  /** Pending: an order's funds move to locked. */
  orderHold: 300,
  /** Void: a cancelled order, or the unfilled rest of a market order, returns its hold. */
  orderRelease: 301,
  /** Void: a buy filled below its limit price returns the difference. */
  orderPriceImprovement: 302,
  /** Post: one leg of a trade, from the payer's hold to the receiver. */
  tradeSettlement: 303,
  /** A trade fee, from what the side received to the fees account. */
  tradeFee: 304,

  /** Seconds contracts (400s): see micro/codes.ts. */
  ...MicroReasonCode,
} as const;

export type ReasonName = keyof typeof ReasonCode;
export type Reason = (typeof ReasonCode)[ReasonName];

const namesByCode = new Map<number, ReasonName>(
  (Object.keys(ReasonCode) as ReasonName[]).map((name) => [ReasonCode[name], name]),
);

export function reasonName(code: number): ReasonName | 'unknown' {
  return namesByCode.get(code) ?? 'unknown';
}
