import { formatDecimal, tryParseDecimal } from '@fairex/shared/decimal.ts';

/**
 * What reaches the address for a typed amount: the amount less the fee, at the currency's scale; '' when
 * the text is not an amount or does not cover the fee. Display only; the server decides.
 */
export function receiveAfterFee(amount: string, fee: string, scale: number): string {
  const typed = tryParseDecimal(amount.trim(), scale);
  const charged = tryParseDecimal(fee, scale);
  if (!typed.ok || !charged.ok || typed.value <= charged.value) return '';
  return formatDecimal(typed.value - charged.value, scale);
}
