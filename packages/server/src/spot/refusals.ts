// What the user reads when the engine refuses a spot command: every result code the spot commands can
// return has a message of its own. The gateway validates input before it reaches the engine, so most of the
// input codes below only answer a request that slipped past validation; they are mapped all the same so no
// refusal ever reaches a user as a bare number.
import type { ResultCodeName } from '@fairex/engine';
import { resultCodeName } from '@fairex/engine';
import type { MessageKey } from '@fairex/shared';
import type { Refusal } from '../engine-runner/submit.ts';

const SPOT_REFUSALS: Partial<Record<ResultCodeName, MessageKey>> = {
  invalidIdempotencyKey: 'spot.idempotency_key_invalid',
  idempotencyKeyReused: 'spot.idempotency_key_reused',
  invalidId: 'spot.market_not_found',
  invalidOwner: 'auth.login_required',
  ownerCannotTrade: 'spot.refused',
  invalidPrice: 'spot.price_invalid',
  invalidQuantity: 'spot.number_invalid',
  quantityBelowMinimum: 'spot.number_below_minimum',
  invalidSide: 'spot.refused',
  invalidOrderKind: 'spot.refused',
  invalidAmount: 'spot.refused',
  invalidClientOrderId: 'spot.client_order_id_invalid',
  insufficientFunds: 'spot.insufficient_funds',
  marketNotFound: 'spot.market_not_found',
  // Another user's order answers exactly as a missing one: an order id says nothing about whose it is.
  orderNotFound: 'spot.order_not_found',
  notOrderOwner: 'spot.order_not_found',
  tooManyOpenOrders: 'spot.too_many_open_orders',
  priceLevelFull: 'spot.price_level_full',
  invalidTimeInForce: 'spot.time_in_force_invalid',
  postOnlyWouldTake: 'spot.post_only_would_take',
  fillOrKillUnfilled: 'spot.fill_or_kill_unfilled',
  invalidStopPrice: 'spot.stop_price_invalid',
};

/** The catalogue message for a refused spot command's result code. */
export function spotRefusalKey(code: number): MessageKey {
  const name = resultCodeName(code);
  return name === 'unknown' ? 'spot.refused' : (SPOT_REFUSALS[name] ?? 'spot.refused');
}

/** The spot area's refusal for submitOrRefuse (engine-runner/submit.ts). */
export const spotRefusal: Refusal = (code) => ({ key: spotRefusalKey(code) });

/** The codes with a message of their own (for the test that every code is covered). */
export const MAPPED_SPOT_CODES = Object.keys(SPOT_REFUSALS) as ResultCodeName[];
