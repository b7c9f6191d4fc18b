// Every engine refusal a spot command can meet reads as a sentence in each language, never a number.
import { describe, expect, it } from 'vitest';
import { ResultCode, SpotResultCode } from '@fairex/engine';
import { LANGUAGES, translate } from '@fairex/shared';
import { MAPPED_SPOT_CODES, spotRefusalKey } from '../../src/spot/refusals.ts';

// The codes placeOrder and cancelOrder return (packages/engine/src/spot/place-order.ts, cancel-order.ts)
// and the envelope-level ones the runner can meet for them.
const SPOT_CODES = [
  'invalidIdempotencyKey',
  'idempotencyKeyReused',
  'invalidId',
  'invalidOwner',
  'ownerCannotTrade',
  'invalidPrice',
  'invalidQuantity',
  'quantityBelowMinimum',
  'invalidSide',
  'invalidOrderKind',
  'invalidAmount',
  'invalidClientOrderId',
  'insufficientFunds',
  'marketNotFound',
  'orderNotFound',
  'notOrderOwner',
  'tooManyOpenOrders',
  'priceLevelFull',
  'invalidTimeInForce',
  'postOnlyWouldTake',
  'fillOrKillUnfilled',
  'invalidStopPrice',
] as const;

const codeOf = (name: (typeof SPOT_CODES)[number]): number =>
  name in SpotResultCode
    ? SpotResultCode[name as keyof typeof SpotResultCode]
    : ResultCode[name as keyof typeof ResultCode];

describe('spot refusals', () => {
  it('maps every code a spot command can return', () => {
    expect([...MAPPED_SPOT_CODES].sort()).toEqual([...SPOT_CODES].sort());
  });

  it('answers in every language with a message of its own', () => {
    for (const name of SPOT_CODES) {
      const key = spotRefusalKey(codeOf(name));
      for (const language of LANGUAGES) expect(translate(language, key)).not.toMatch(/\{|^$/);
    }
    expect(spotRefusalKey(ResultCode.insufficientFunds)).toBe('spot.insufficient_funds');
    // An order of someone else reads exactly like a missing one.
    expect(spotRefusalKey(ResultCode.notOrderOwner)).toBe(spotRefusalKey(ResultCode.orderNotFound));
  });

  it('falls back to a plain refusal for a code it does not know', () => {
    expect(spotRefusalKey(99_999)).toBe('spot.refused');
    expect(spotRefusalKey(ResultCode.currencyExists)).toBe('spot.refused');
  });
});
