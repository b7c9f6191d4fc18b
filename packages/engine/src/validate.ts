import { MAX_AMOUNT, MAX_MEMO_LENGTH } from './limits.ts';

// Small guards for command fields. Commands arrive as decoded JSON, so every field is checked for its
// type as well as its range before anything changes.

/** A safe integer in 1..max. */
export function isCount(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 && value <= max;
}

/** A safe integer in 0..max. */
export function isNatural(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= max;
}

/** A bigint amount in 1..MAX_AMOUNT minor units. */
export function isAmount(value: unknown): value is bigint {
  return typeof value === 'bigint' && value > 0n && value <= MAX_AMOUNT;
}

/** Short text without control characters. */
export function isText(value: unknown, maxLength: number): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > maxLength) return false;
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return false;
  }
  return true;
}

/** Short text that may span lines: no control characters but tab, line feed and carriage return. */
function isMemo(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_MEMO_LENGTH) return false;
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) return false;
  }
  return true;
}

/** An absent memo, or short text (an operator's note may span lines). */
export function isOptionalMemo(value: unknown): value is string | undefined {
  return value === undefined || isMemo(value);
}
