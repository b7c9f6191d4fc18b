// The integer codes of the spot_orders columns (migration 0060): what the projection writes and what the order
// reads turn back into the engine's names. Codes only grow: a new value gets the next number.
import type { CancelReason, OrderKind, Side } from '@fairex/engine';

export const SIDE_CODE = { buy: 1, sell: 2 } as const satisfies Record<Side, number>;
export const KIND_CODE = { limit: 1, market: 2 } as const satisfies Record<OrderKind, number>;
/** A closed order's ending. */
export const STATUS_CODE = { filled: 1, cancelled: 2 } as const;
export const CANCEL_REASON_CODE = {
  user: 1,
  selfTrade: 2,
  marketUnfilled: 3,
  marketFunds: 4,
  marketBand: 5,
  marketBook: 6,
  iocUnfilled: 7,
} as const satisfies Record<CancelReason, number>;

const SIDES: readonly Side[] = ['buy', 'sell'];
const KINDS: readonly OrderKind[] = ['limit', 'market'];
const STATUSES = ['filled', 'cancelled'] as const;
const CANCEL_REASONS = Object.keys(CANCEL_REASON_CODE) as CancelReason[];

function named<T>(names: readonly T[], code: number, what: string): T {
  const name = names[code - 1];
  if (name === undefined) throw new RangeError(`spot_orders holds an unknown ${what} code ${code}`);
  return name;
}

export const sideOf = (code: number): Side => named(SIDES, code, 'side');
export const kindOf = (code: number): OrderKind => named(KINDS, code, 'kind');
export const statusOf = (code: number): 'filled' | 'cancelled' => named(STATUSES, code, 'status');
export const cancelReasonOf = (code: number | null): CancelReason | null =>
  code === null ? null : named(CANCEL_REASONS, code, 'cancel reason');
