// Amounts typed by a user, parsed once at the currency's own scale. (The decimal field of the shared schema
// helpers checks at 18 decimals, which bounds whole amounts below 9.2; wallet amounts are therefore taken as
// text and parsed here, where the currency is known.)
import { tryParseDecimal } from '@fairex/shared';
import { refuse } from './engine-calls.ts';

/** Text of at most this length is considered at all (declared with the wallet calls' input schemas). */
export { MAX_AMOUNT_TEXT } from '@fairex/shared';

/**
 * A positive amount in minor units of a currency with `scale` decimals. `label` is the translated name of
 * the field, used in the refusal.
 */
export function parseAmount(text: string, scale: number, label: string): bigint {
  const trimmed = text.trim();
  const result = tryParseDecimal(trimmed, scale);
  if (result.ok) {
    if (result.value <= 0n) refuse('validation.decimal_positive', { field: label });
    return result.value;
  }
  switch (result.code) {
    case 'sign':
      return refuse(trimmed.startsWith('-') ? 'validation.decimal_negative' : 'validation.decimal', {
        field: label,
      });
    case 'scale':
      return refuse('validation.decimal_scale', { field: label, scale });
    case 'range':
      return refuse('validation.decimal_range', { field: label });
    default:
      return refuse('validation.decimal', { field: label });
  }
}
